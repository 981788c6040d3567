"""Demo content built in code, so it follows the models instead of rotting in a fixture."""

from django.utils import translation
from wagtail.models import Page, Site

from .models import ArticlePage, HomePage


def _set_translated(obj, **fields):
    for name, values in fields.items():
        for lang, value in values.items():
            setattr(obj, f"{name}_{lang}", value)


def ensure_home_page():
    home = HomePage.objects.first()
    if home is None:
        root = Page.get_first_root_node()
        # Wagtail's placeholder welcome page makes way for ours.
        for placeholder in root.get_children():
            if placeholder.specific_class is Page and not placeholder.get_children().exists():
                placeholder.delete()
        home = HomePage()
        _set_translated(
            home,
            title={"en": "LLM API benchmarks", "es": "Benchmarks de APIs de LLM"},
            slug={"en": "home", "es": "inicio"},
            intro={
                "en": "<p>Which host serves a model fastest, cheapest and most reliably, measured.</p>",
                "es": "<p>Qué proveedor sirve cada modelo más rápido, más barato y con más fiabilidad, medido.</p>",
            },
        )
        root.add_child(instance=home)
        home.save_revision().publish()
    site = Site.objects.filter(is_default_site=True).first()
    if site is None:
        Site.objects.create(hostname="localhost", port=80, root_page=home, is_default_site=True)
    elif site.root_page_id != home.pk:
        site.root_page = home
        site.save()
    return home


def ensure_article(home, slug_en, **fields):
    with translation.override("en"):
        existing = ArticlePage.objects.filter(slug_en=slug_en).first()
    if existing:
        return existing, False
    page = ArticlePage()
    _set_translated(page, **fields)
    home.add_child(instance=page)
    page.save_revision().publish()
    return page, True


def load_demo_site():
    report = []
    home = ensure_home_page()
    report.append(f"home page: {home.url_path}")
    page, created = ensure_article(
        home,
        "welcome",
        title={"en": "How we compare LLM API providers", "es": "Cómo comparamos proveedores de APIs de LLM"},
        slug={"en": "welcome", "es": "bienvenida"},
        summary={
            "en": "What the benchmark articles on this site measure and where the figures come from.",
            "es": "Qué miden los artículos de este sitio y de dónde salen las cifras.",
        },
        body={
            "en": [
                {"type": "heading", "value": {"text": "Measured, not assumed"}},
                {"type": "paragraph", "value": "<p>Every figure on these pages comes from a dated snapshot of a named source.</p>"},
            ],
            "es": [
                {"type": "heading", "value": {"text": "Medido, no supuesto"}},
                {"type": "paragraph", "value": "<p>Cada cifra de estas páginas procede de una instantánea fechada de una fuente con nombre.</p>"},
            ],
        },
    )
    report.append(f"article {'created' if created else 'already present'}: {page.slug_en}")
    return report
