"""What each article depends on, from its blocks' own `data_requirements` declarations."""

from django.conf import settings

from benchmarks.ingest.affected_pages import PageDependencies

from .figures import block_requirements


def article_dependencies():
    """[PageDependencies] for every article, most recently edited first."""
    from .models import ArticlePage

    pages = list(
        ArticlePage.objects.prefetch_related("page_sources").order_by("-latest_revision_created_at", "-pk")
    )
    found = []
    for page in pages:
        deps = PageDependencies(page=page, cited={item.source_id for item in page.page_sources.all()})
        for language, _name in settings.LANGUAGES:
            body = getattr(page, f"body_{language}", None)
            if not body:
                continue
            models, sources = block_requirements(list(body))
            deps.by_language[language] = (set(models), set(sources))
        found.append(deps)
    return found
