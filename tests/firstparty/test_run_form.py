"""The run form offers first-party sources only, and its endpoints as checkboxes grouped by model
(firstparty/endpoint_picker.py; the browser test tests/browser/test_run_endpoints.py drives its search
and "all endpoints of this model")."""

import pytest
from bs4 import BeautifulSoup

from benchmarks.models import Source
from firstparty.models import Run
from tests.firstparty_support import first_party_source, make_endpoint

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/firstparty/runs/new/"


def third_party_source():
    return Source.objects.create(title="GLM-5.3 providers", publisher="Artificial Analysis",
                                 url="https://example.org/aa", kind="benchmark")


def post(client, source, endpoints):
    return client.post(ADD_URL, {"name": "GLM run", "source": source.pk, "endpoints": [e.pk for e in endpoints],
                                 "requests_per_endpoint": 10, "workload": "", "effort": "", "tokenizer": "",
                                 "measured_at": ""})


def test_only_first_party_sources_are_offered(editor_client):
    ours = first_party_source("Our GLM run")
    theirs = third_party_source()
    prices = Source.objects.create(title="pricing", publisher="Groq", url="https://example.org/groq",
                                   kind="price_list")
    soup = BeautifulSoup(editor_client.get(ADD_URL).content, "html.parser")
    offered = {option["value"] for option in soup.select("select[name=source] option") if option["value"]}
    assert offered == {str(ours.pk)}
    assert str(theirs.pk) not in offered and str(prices.pk) not in offered


def test_a_third_party_source_is_refused(editor_client):
    response = post(editor_client, third_party_source(), [make_endpoint()])
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Run.objects.exists()


def test_endpoints_are_checkboxes_grouped_by_model_and_saved(editor_client):
    flash = [make_endpoint("acme"), make_endpoint("zeta"), make_endpoint("acme", tier="Fast")]
    other = make_endpoint("acme", model_slug="gpt-oss-120b")
    soup = BeautifulSoup(editor_client.get(ADD_URL).content, "html.parser")
    assert not soup.select("select[name=endpoints]")
    groups = {
        group.legend.get_text(strip=True): [label.get_text(strip=True) for label in group.select("[data-endpoint-picker-item] label")]
        for group in soup.select("[data-endpoint-picker-model]")
    }
    assert groups == {"GLM-5-3-FLASH": ["Acme", "Acme (Fast)", "Zeta"], "GPT-OSS-120B": ["Acme"]}
    assert soup.find("script", src=lambda src: src and src.endswith("firstparty/js/endpoint_picker.js"))

    assert post(editor_client, first_party_source(), flash[:2]).status_code == 302
    assert set(Run.objects.get().endpoints.all()) == set(flash[:2])
    assert other not in Run.objects.get().endpoints.all()
