"""Charts drawn on the server as inline SVG (JavaScript only enhances them), and redrawn as the article's
Open Graph PNG: shared scales, ticks, label placement, what a trend chart reads, and its change marks."""
