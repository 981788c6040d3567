"""Import contracts between the layers (issue 28): data → ingest → pages → review/editorial.

A module may import from its own layer and from the layers below it, never from one above: the data
model must not need the pages that show it, the pages must not need the workflow that reviews them.
Every import counts, at module level and inside functions (a deferred import is still a dependency;
it only hides a cycle from Python). No known violation is left (issue 28 listed ten); the test fails on
any import from a higher layer, and on a cycle between two modules that is not listed with its reason
in KNOWN_CYCLES (and on a listed one that has gone: remove it). This test reads the source with `ast`
rather than running import-linter: it checks the same contracts without a dependency, at module and
function level, and runs in `make test` with the rest of the suite.

Where shared pieces live:
- Number formatting (`benchmarks/formatting.py`) is the data layer's: a metric's precision, significant
  figures, unit and difference unit are declared in `benchmarks/metrics.py`, and how its value prints
  follows from them. Pages, first-party admin templates and the review all print figures the same way.
- `localized/` is the shared layer below data and pages for what a translated model is and how its
  languages are read: which models carry translated text and when a value is blank (`tracking.py`), a
  page's address in each language and whether that version is worth advertising (`alternates.py`),
  the translatable text segments of an object as read from its English content (`segments.py`).
  Where a translated model needs the workflow (approved Spanish in each revision, the fields a
  translator may change), the workflow registers itself at start-up (`revisions.py`, `form_access.py`).
  The workflow that writes the Spanish (drafts, approval, the workspace) is editorial's, above pages.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("benchmarks", "firstparty", "articles", "reviews", "editorial", "localized")

# Parts of the benchmarks app that are not the data layer: they sit above it (ingest), or wire and
# drive every layer (the admin, management commands, demo loaders, app start-up).
NOT_DATA = ("benchmarks.ingest", "benchmarks.admin", "benchmarks.management", "benchmarks.demo_data",
            "benchmarks.demo_refresh", "benchmarks.wagtail_hooks", "benchmarks.apps")
PAGES_AND_ABOVE = ("articles", "reviews", "editorial")

# (modules it applies to, modules left out of them, modules they may not import)
CONTRACTS = [
    ("localized", (), ("benchmarks", "firstparty", *PAGES_AND_ABOVE)),
    ("benchmarks", NOT_DATA, (*NOT_DATA, "firstparty", *PAGES_AND_ABOVE)),
    ("benchmarks.ingest", (), ("benchmarks.admin", "benchmarks.management", *PAGES_AND_ABOVE)),
    ("firstparty", (), PAGES_AND_ABOVE),
    ("articles", (), ("reviews", "editorial")),
]

# Imports from a higher layer still allowed (none: add one only with the issue that will remove it).
KNOWN_VIOLATIONS = set()

# Two modules importing each other (one of them inside a function, or Python would refuse):
KNOWN_CYCLES = {
    # Kept, each within one layer and one package, for a reason (remove a line when its cycle is broken):
    # - models.py gathers the app's model modules (imported at its bottom, so Django registers them),
    #   and those modules read models.py's classes: the split of one models module into files.
    ("benchmarks.current", "benchmarks.models"),
    ("benchmarks.models", "benchmarks.price_models"),
    ("benchmarks.models", "benchmarks.querysets"),
    # - Celery: a task wraps its logic, and the logic queues the task on commit (the import inside
    #   the task body is how a worker loads the logic only when it runs).
    ("articles.reconcile", "articles.tasks"),
    ("benchmarks.ingest.replays", "benchmarks.ingest.tasks"),
    ("benchmarks.ingest.scheduling", "benchmarks.ingest.tasks"),
    # - Applying approved Spanish includes the held Spanish (spanish.py calls held.with_held), and
    #   holding reads the segments and memories spanish.py gives; to break it, move english_segments
    #   and memory_for into a module of their own.
    ("editorial.held", "editorial.spanish"),
}


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path):
    """Every module this file imports (absolute names), wherever in the file the import is."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            else:
                base = ""
            target = ".".join(part for part in (base, node.module) if part)
            if node.module:
                found.add(target)
            # `from . import spanish`, `from reviews import change_log`: a name may be a module (a
            # class or function name only adds a name below its module, which changes nothing).
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def _graph():
    graph = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            graph[_module_name(path)] = {name for name in _imports(path) if name.split(".")[0] in APPS}
    return graph


def _within(name, prefixes):
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _violations(graph):
    found = set()
    for module, imported in graph.items():
        for applies_to, left_out, forbidden in CONTRACTS:
            if _within(module, (applies_to,)) and not _within(module, left_out):
                found.update((module, name) for name in imported if _within(name, forbidden))
    return found


def _cycles(graph):
    def resolves(name, module):
        return name == module or name.startswith(module + ".")

    pairs = set()
    for module, imported in graph.items():
        for other in graph:
            if other != module and any(resolves(name, other) for name in imported) and any(
                resolves(name, module) for name in graph[other]
            ):
                pairs.add(tuple(sorted((module, other))))
    # A package and its own submodules import each other by nature (`__init__` re-exports).
    return {(a, b) for a, b in pairs if not b.startswith(a + ".")}


def test_the_graph_sees_module_and_function_level_imports():
    graph = _graph()
    assert "benchmarks.versioning" in graph["articles.prerender"]  # module level
    assert "articles.statements.markup" in graph["articles.models"]  # inside a function
    assert "editorial.derive" in graph["editorial.spanish"]  # relative
    assert "articles.change_log" in graph["articles.feeds"]  # `from . import change_log`


def test_no_layer_imports_from_a_layer_above_it():
    found = _violations(_graph())
    new = sorted(found - KNOWN_VIOLATIONS)
    assert not new, "imports from a higher layer (data → ingest → pages → review/editorial):\n" + "\n".join(
        f"  {module} imports {name}" for module, name in new
    )
    gone = sorted(KNOWN_VIOLATIONS - found)
    assert not gone, f"fixed, remove from KNOWN_VIOLATIONS: {gone}"


def test_no_new_import_cycles_between_modules():
    found = _cycles(_graph())
    new = sorted(found - KNOWN_CYCLES)
    assert not new, "modules importing each other:\n" + "\n".join(f"  {a} ⇄ {b}" for a, b in new)
    gone = sorted(KNOWN_CYCLES - found)
    assert not gone, f"fixed, remove from KNOWN_CYCLES: {gone}"
