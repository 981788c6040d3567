"""Demo content built in code, so it follows the models instead of rotting in a fixture."""

from django.utils import translation
from wagtail.models import Page, Site

from benchmarks.demo_data import load_benchmark_data
from benchmarks.models import Endpoint

from ..models import ArticlePage, ArticleSource, HomePage
from .fastest_api import ARTICLE_SOURCE_KEYS, fastest_api_body, fastest_summary
from .scorecard import scorecard_body, scorecard_summary


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


def ensure_article(home, slug_en, sources=(), show_meta_line=True, **fields):
    with translation.override("en"):
        existing = ArticlePage.objects.filter(slug_en=slug_en).first()
    if existing:
        return existing, False
    page = ArticlePage(show_meta_line=show_meta_line)
    _set_translated(page, **fields)
    page.page_sources = [ArticleSource(source=source, sort_order=i) for i, source in enumerate(sources)]
    home.add_child(instance=page)
    page.save_revision().publish()
    return page, True


def _bodies(builder, *args):
    return {lang: builder(lang, *args) for lang in ("en", "es")}


def load_demo_site():
    report = []
    data = load_benchmark_data()
    report += data["report"]
    data["endpoints"] = {
        (e.provider.slug, e.model.slug, e.tier): e for e in Endpoint.objects.select_related("provider", "model")
    }
    home = ensure_home_page()
    report.append(f"home page: {home.url_path}")

    fastest, created = ensure_article(
        home,
        "fastest-llm-api",
        sources=[data["sources"][key] for key in ARTICLE_SOURCE_KEYS],
        title={
            "en": "Fastest LLM API: output speed per model, not per vendor",
            "es": "La API de LLM más rápida: velocidad de salida por modelo, no por proveedor",
        },
        slug={"en": "fastest-llm-api", "es": "api-llm-mas-rapida"},
        summary=fastest_summary(data),
        # The disclosure cannot hold a checked statement (its field has no such feature), so it says
        # nothing the data decides (the article has a card for Novita AI whatever the data): where it
        # ranks is said in its card and in the methodology, as checked statements.
        publisher_disclosure={
            "en": "<p>Published by Novita AI, itself an LLM API provider and one of the hosts this article covers; "
            "all figures come from the public sources listed below.</p>",
            "es": "<p>Publicado por Novita AI, que también ofrece APIs de LLM y es uno de los proveedores que trata "
            "este artículo; todas las cifras proceden de las fuentes públicas que se citan abajo.</p>",
        },
        body=_bodies(fastest_api_body, data),
    )
    report.append(f"article {'created' if created else 'already present'}: {fastest.slug_en}")

    scorecard, created = ensure_article(
        home,
        "glm-5-3-flash-providers",
        sources=[data["sources"]["run-glm-5-3-flash"], data["sources"]["probe-glm-5-3-flash"]],
        show_meta_line=False,
        title={
            "en": "GLM-5.3-Flash API providers compared: latency, tokens per second and accuracy",
            "es": "Proveedores de la API de GLM-5.3-Flash: latencia, tokens por segundo y precisión",
        },
        slug={"en": "glm-5-3-flash-providers", "es": "proveedores-glm-5-3-flash"},
        summary=scorecard_summary(data),
        body=_bodies(scorecard_body, data, fastest),
    )
    report.append(f"article {'created' if created else 'already present'}: {scorecard.slug_en}")
    return report
