"""What every translated model needs below the editorial layer (docs: tests/test_layers.py).

Data (benchmarks) and pages (articles) define translated models; the translation workflow that
fills their Spanish lives above both, in editorial. The models inherit the hook from here, and
editorial plugs its implementation in at start-up, so neither lower layer imports editorial.
"""
