"""Which pages show figures a refresh changed.

Benchmarks does not know how pages are built: page apps answer through the Wagtail hook
`PAGES_SHOWING_DATA_HOOK`, whose functions return, for every page, the models and sources its
blocks declare they depend on (per language) and the sources it cites.
"""

from dataclasses import dataclass, field

from wagtail import hooks

PAGES_SHOWING_DATA_HOOK = "pages_showing_benchmark_data"


@dataclass
class PageDependencies:
    page: object
    by_language: dict = field(default_factory=dict)  # language -> ({model ids}, {source ids})
    cited: set = field(default_factory=set)  # source ids in the page's footnote list


def load_references():
    """[PageDependencies] from every registered page app, most recently edited first within each."""
    found = []
    for lookup in hooks.get_hooks(PAGES_SHOWING_DATA_HOOK):
        found.extend(lookup())
    return found


def articles_showing(model_ids, source_ids, references=None):
    """[(page, [languages])] for pages that show any of these models or sources."""
    model_ids, source_ids = set(model_ids), set(source_ids)
    result = []
    for deps in load_references() if references is None else references:
        languages = [
            language
            for language, (models, sources) in deps.by_language.items()
            if models & model_ids or sources & source_ids
        ]
        if languages or deps.cited & source_ids:
            result.append((deps.page, languages))
    return result
