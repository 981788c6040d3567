"""A small bilingual page tree for the editorial tests (the full demo takes seconds per test)."""


def paragraphs(*texts):
    return [{"type": "paragraph", "value": f"<p>{text}</p>"} for text in texts]


def publish_article(home, slug_en, slug_es=None, **values):
    """Create and publish an ArticlePage; `values` are `<field>_<lang>` keyword arguments.

    Spanish values given here are what the page's translation memory starts from (its first revision
    bootstraps it, editorial.spanish); later Spanish changes go through tests.workspace_support."""
    from articles.models import ArticlePage

    page = ArticlePage(slug_en=slug_en, slug_es=slug_es, **values)
    home.add_child(instance=page)
    page.save_revision().publish()
    return ArticlePage.objects.get(pk=page.pk)


def build_small_site():
    """The demo's bilingual home page plus one article with an English and a Spanish body (approved
    Spanish from the start: the memory is bootstrapped from it, as for the demo site)."""
    from articles.demo import ensure_home_page

    home = ensure_home_page()
    publish_article(
        home,
        "guide",
        "guia",
        title_en="Reading the tables",
        title_es="Cómo leer las tablas",
        summary_en="What each column means.",
        summary_es="Qué significa cada columna.",
        body_en=paragraphs("Every figure has a source."),
        body_es=paragraphs("Cada cifra tiene una fuente."),
    )
    return home
