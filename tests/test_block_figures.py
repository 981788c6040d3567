"""Every block that reads benchmark data declares the figures it prints and the data it depends on;
the review, the data page, the provenance tooltip and the affected-pages lookup read those
declarations (no guessing from the names of template variables)."""

import datetime

import pytest
from django.utils import timezone, translation
from wagtail import blocks
from wagtail.snippets.blocks import SnippetChooserBlock

from articles.blocks import ArticleBodyBlock
from articles.blocks.base import DataBlockMixin
from articles.data import PageData
from articles.figures import page_figures
from benchmarks.ingest.affected_pages import articles_showing
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import glm_data, make_article, paragraph, ref_html
from tests.pagecheck import squeeze, visible_text

# Choosing what is measured (a model, an endpoint) reads data; citing a source alone does not.
BENCHMARK_MODELS = {"languagemodel", "endpoint"}


def reads_benchmark_data(block):
    """Structure only: a chooser of benchmark data anywhere inside, a data reference feature, or a
    data block base class."""
    if isinstance(block, DataBlockMixin):
        return True
    if isinstance(block, SnippetChooserBlock):
        model = block.target_model
        return model._meta.app_label == "benchmarks" and model._meta.model_name in BENCHMARK_MODELS
    if isinstance(block, blocks.RichTextBlock):
        return "dataref" in (block.features or [])
    children = list(getattr(block, "child_blocks", {}).values())
    if isinstance(block, blocks.ListBlock):
        children.append(block.child_block)
    return any(reads_benchmark_data(child) for child in children)


def declares_figures(block):
    own = type(block).figures is not DataBlockMixin.figures if isinstance(block, DataBlockMixin) else True
    on_value = hasattr(getattr(block.meta, "value_class", object), "figures")
    return hasattr(block, "figures") and hasattr(block, "data_requirements") and (own or on_value)


def test_every_body_block_that_reads_benchmark_data_declares_its_figures():
    body = ArticleBodyBlock()
    readers = {name for name, block in body.child_blocks.items() if reads_benchmark_data(block)}
    # The check must see the data blocks at all, or it would pass by finding nothing.
    assert {"picks_table", "provider_table", "bar_chart", "provider_cards", "provider_list", "endpoint_list",
            "leaderboard", "paragraph"} <= readers
    undeclared = sorted(name for name in readers if not declares_figures(body.child_blocks[name]))
    assert undeclared == [], f"blocks that read benchmark data but declare no figures: {undeclared}"


def test_a_data_block_without_a_declaration_is_caught():
    class Sneaky(DataBlockMixin, blocks.StructBlock):
        model = SnippetChooserBlock("benchmarks.LanguageModel")

    block = Sneaky()
    assert reads_benchmark_data(block) and not declares_figures(block)


@pytest.mark.django_db
def test_every_figure_a_demo_block_declares_is_printed_by_it(demo_site):
    from articles.models import ArticlePage

    checked = 0
    for page in ArticlePage.objects.live():
        for language in ("en", "es"):
            body = list(getattr(page, f"body_{language}"))
            data = PageData(page=page, blocks=body)
            with translation.override(language):
                for item in page_figures(body, data):
                    html = body[item.block_index].render(context={"page_data": data, "page": page})
                    assert squeeze(item.figure.text) in squeeze(visible_text(html)), (item.place, item.figure.label)
                    checked += 1
                    if item.figure.text != "—":
                        assert item.figure.sources, item.figure.label
    assert checked > 300


@pytest.mark.django_db
def test_an_averaged_leaderboard_figure_declares_every_value_behind_it(client):
    model = LanguageModelFactory(name="Kimi K3")
    source = SourceFactory(publisher="Our probe", title="Kimi K3 plans")
    plan = EndpointFactory(provider=ProviderFactory(name="Moonshot"), model=model)
    now = timezone.now()
    for hours, speed in ((20, "90"), (10, "100"), (2, "110")):
        SnapshotFactory(
            source=source, measured_at=now - datetime.timedelta(hours=hours),
            values=[(plan, "output_speed_median", speed)], published=True,
        )
    SnapshotFactory(  # outside the 24-hour window
        source=source, measured_at=now - datetime.timedelta(hours=30),
        values=[(plan, "output_speed_median", "10")], published=True,
    )
    board = {"metric": "output_speed_median", "models": [{"model": model.pk, "source": source.pk}],
             "window_hours": 24, "limit": None, "name_style": "short"}
    page = make_article([{"type": "leaderboard", "value": board}], sources=[source])

    body = list(page.body_en)
    [item] = page_figures(body, PageData(page=page, blocks=body))
    assert item.figure.text == "100.0" and item.figure.is_average
    assert len(item.figure.measurements) == 3 and item.figure.sources == [source]

    article = client.get(page.url)
    assert "average of 3 values over 24 h" in article.text  # the tooltip of the averaged cell
    trail = client.get(page.url + "data/")
    text = squeeze(visible_text(trail.text))
    assert "100.0" in text and squeeze("average of 3 values over 24 h") in text


@pytest.mark.django_db
def test_a_model_used_only_in_a_data_reference_makes_the_page_affected():
    data = glm_data()
    other = LanguageModelFactory(name="Elsewhere")
    page = make_article([paragraph(f"<p>Fastest: {ref_html(data['model'], 'output_speed_median')}</p>")])

    found = articles_showing({data["model"].pk}, set())
    assert [(p.pk, languages) for p, languages in found] == [(page.pk, ["en", "es"])]
    assert articles_showing({other.pk}, set()) == []
