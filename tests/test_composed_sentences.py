"""Editors compose the provider-by-provider sentence from parts in the admin; presets are the same parts."""

from decimal import ROUND_HALF_UP, Decimal

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from wagtail.test.utils.form_data import inline_formset, nested_form_data, rich_text, streamfield

from articles.models import ArticlePage
from benchmarks.demo_data import RUN_SOURCE
from benchmarks.models import LanguageModel, Measurement, Source
from editorial.roles import TRANSLATORS

from .workspace_support import logged_in, member, review, segment_key, translate


def _list(items):
    return {"count": len(items), **{f"{i}-value": v for i, v in enumerate(items)},
            **{f"{i}-deleted": "" for i in range(len(items))}, **{f"{i}-order": i for i in range(len(items))}}


def part(field, before="", after="", unit="auto", decimals=""):
    return {"field": field, "before_en": before, "after_en": after, "unit": unit, "decimals": decimals}


CHATBOT_PARTS = [
    part("tps_median", after="tokens per second median", unit="number"),
    part("tps_p95", after="tokens per second p95 floor", unit="number"),
    part("ttft_p95", before="time to first token p95"),
    part("e2e_p99", before="end-to-end p99", unit="s", decimals="1"),
]
# The same words in Spanish, written in the translation workspace (the page form is English only).
SPANISH = {
    "tokens per second median": "tokens por segundo de mediana",
    "tokens per second p95 floor": "tokens por segundo como mínimo p95",
    "time to first token p95": "tiempo hasta el primer token p95",
    "end-to-end p99": "p99 de extremo a extremo",
    "Avg tokens/s (24h)": "Media de tokens/s (24 h)",
}


def chatbot_list(model, source):
    return {"model": model.pk, "source": source.pk, "pattern": "custom", "parts": _list(CHATBOT_PARTS),
            "order_by": "ttft_p95", "order": "asc", "name_style": "full"}


def leaderboard(model, source):
    return {"metric": "output_speed_median", "source": source.pk, "models": _list([{"model": model.pk, "source": ""}]),
            "window_hours": "", "limit": "", "name_style": "short",
            "value_heading_en": "Avg tokens/s (24h)", "caption_en": rich_text("")}


def _round(value, decimals):
    return Decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def expected_lines(model, source, lang):
    """The sentences worked out from the stored measurements, independently of the block's code."""
    values = {}
    for row in Measurement.objects.filter(snapshot__source=source, endpoint__model=model).select_related(
            "endpoint__provider"):
        values.setdefault(row.endpoint, {})[row.metric] = row.value
    endpoints = sorted((e for e in values if "ttft_p95" in values[e]), key=lambda e: values[e]["ttft_p95"])
    lines = []
    for endpoint in endpoints:
        v = values[endpoint]
        ttft = v["ttft_p95"]
        if lang == "en":
            ttft_text = f"{_round(ttft * 1000, 0)} ms" if ttft < 1 else f"{_round(ttft, 2)} seconds"
            words = ("tokens per second median", "tokens per second p95 floor", "time to first token p95",
                     "end-to-end p99")
        else:
            ttft_text = f"{_round(ttft * 1000, 0)} ms" if ttft < 1 else f"{_round(ttft, 2)} segundos"
            words = ("tokens por segundo de mediana", "tokens por segundo como mínimo p95",
                     "tiempo hasta el primer token p95", "p99 de extremo a extremo")
        lines.append(
            f"{endpoint.provider.full_name or endpoint.provider.name}: {_round(v['tps_median'], 1)} {words[0]}, "
            f"{_round(v['tps_p95'], 1)} {words[1]}, {words[2]} {ttft_text}, {words[3]} {_round(v['e2e_p99'], 1)} s."
        )
    return lines


@pytest.fixture
def editor(client, demo_site):
    user = get_user_model().objects.create_superuser("composer", "composer@example.com", "pw-composer-123")
    client.force_login(user)
    return client


def test_the_chatbot_list_is_built_from_admin_form_data_alone(editor, demo_site, django_user_model):
    flash = LanguageModel.objects.get(slug="glm-5-3-flash")
    run = Source.objects.get(kind=Source.Kind.FIRST_PARTY, url=RUN_SOURCE[3])
    data = nested_form_data({
        "title_en": "Chatbot hosts", "slug_en": "chatbot-hosts", "summary_en": rich_text(""),
        "body_en": streamfield([("provider_list", chatbot_list(flash, run)), ("leaderboard", leaderboard(flash, run))]),
        "publisher_disclosure_en": rich_text(""),
        "show_meta_line": "", "statement_policy": "mark", "page_sources": inline_formset([{"source": run.pk}]),
        "action-publish": "action-publish",
    })
    response = editor.post(f"/admin/pages/add/articles/articlepage/{demo_site.pk}/", data)
    assert response.status_code == 302, response.content[:3000]
    page = ArticlePage.objects.get(slug_en="chatbot-hosts")
    assert page.live

    # The Spanish words of the same parts: typed by a translator in the workspace, approved by the editor.
    translator = logged_in(member(django_user_model, "traductora", TRANSLATORS))
    spanish = {"title": "Proveedores para chatbots", "slug": "proveedores-chatbots"}
    spanish.update({segment_key(page, english): words for english, words in SPANISH.items()})
    assert translate(translator, page, spanish, action="submit").status_code == 302
    assert review(editor, page).status_code == 302

    for lang, path in (("en", "/en/chatbot-hosts/"), ("es", "/es/proveedores-chatbots/")):
        soup = BeautifulSoup(editor.get(path).content, "html.parser")
        for panel in soup.select(".prov-panel[hidden]"):  # each figure's ⓘ trail, shown on demand
            panel.decompose()
        shown = [" ".join(li.text.split()) for li in soup.select("ul.provider-list li")]
        expected = expected_lines(flash, run, lang)
        assert len(expected) >= 8
        assert shown == expected
        heading = soup.select("table.leaderboard thead th")[-1].text
        assert heading == ("Avg tokens/s (24h)" if lang == "en" else "Media de tokens/s (24 h)")


def test_descending_order_reverses_the_list(demo_site):
    from articles.blocks import ProviderListBlock
    from articles.blocks.base import BoundChild
    from articles.data import PageData

    flash = LanguageModel.objects.get(slug="glm-5-3-flash")
    run = Source.objects.get(kind=Source.Kind.FIRST_PARTY, url=RUN_SOURCE[3])
    block = ProviderListBlock()
    names = {}
    for order in ("asc", "desc", "best"):
        value = block.to_python({"model": flash.pk, "source": run.pk, "pattern": "speed_summary", "parts": [],
                                 "order_by": "ttft_p95", "order": order, "name_style": "short"})
        data = PageData(blocks=[BoundChild(block, value)])
        names[order] = [item["name"] for item in value.compute(data)["items"]]
    assert names["desc"] == list(reversed(names["asc"]))
    assert names["best"] == names["asc"]  # lower time is better
