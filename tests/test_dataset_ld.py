"""The article's schema.org Dataset, read as a JSON-LD processor (PyLD) reads it: expanded against the
schema.org context, every value lands on the schema.org term it claims. A licence written as text
("Attribution required") expanded to a relative address, not the licence page a search engine follows.

The context is tests/jsonld/schemaorg-context-30.0.jsonld.gz (schema.org release 30.0: the schemaorg
repository's data/releases/30.0/schemaorgcontext.jsonld, gzipped as it is), served by a loader that
refuses any other address: the tests need no network and see the same context every run.
"""

import gzip
import json
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from bs4 import BeautifulSoup
from pyld import jsonld
from pyld.documentloader.frozen import FrozenDocumentLoader

CONTEXT_FILE = Path(__file__).parent / "jsonld" / "schemaorg-context-30.0.jsonld.gz"
CONTEXT = json.loads(gzip.decompress(CONTEXT_FILE.read_bytes()))
LOADER = FrozenDocumentLoader({"https://schema.org": CONTEXT, "https://schema.org/": CONTEXT})
SCHEMA = "http://schema.org/"  # the context's @vocab: what the terms expand to


def page_dataset(client, url):
    """(the page's Dataset as published, the same expanded by PyLD) and the parsed page."""
    response = client.get(url)
    assert response.status_code == 200
    soup = BeautifulSoup(response.content, "html.parser")
    documents = [json.loads(script.string) for script in soup.select('script[type="application/ld+json"]')]
    [document] = [d for d in documents if d.get("@type") == "Dataset"]
    [expanded] = jsonld.expand(document, {"documentLoader": LOADER})
    return document, expanded, soup


def ids(expanded, term):
    return [value["@id"] for value in expanded.get(SCHEMA + term, [])]


def values(expanded, term):
    return [value["@value"] for value in expanded.get(SCHEMA + term, [])]


def test_the_dataset_expands_to_schema_org_terms_with_licence_pages_and_downloads(client, demo_site):
    from articles.models import ArticlePage

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    _document, dataset, soup = page_dataset(client, "/en/fastest-llm-api/")
    assert dataset["@type"] == [SCHEMA + "Dataset"]
    # At the origin the reader used (the test client's), not the Site record's "localhost": the head
    # is rendered ahead without a request (articles/addresses.py).
    url = "http://testserver" + page.get_url()
    assert ids(dataset, "url") == [url] and url.endswith("/en/fastest-llm-api/")
    assert values(dataset, "isAccessibleForFree") == [True]

    # Licences: an address per source, each its licence or terms page; no free text.
    licences = ids(dataset, "license")
    assert "https://artificialanalysis.ai/terms-of-use" in licences
    assert "https://www.baseten.co/terms-and-conditions/" in licences  # the page prints Baseten's prices
    assert all(urlsplit(licence).scheme == "https" and urlsplit(licence).netloc for licence in licences), licences

    # The two downloads of the data page, at absolute addresses that serve those files.
    downloads = {
        values(entry, "encodingFormat")[0]: ids(entry, "contentUrl")[0] for entry in dataset[SCHEMA + "distribution"]
    }
    assert all(entry["@type"] == [SCHEMA + "DataDownload"] for entry in dataset[SCHEMA + "distribution"])
    assert downloads == {"text/csv": url + "data/csv/", "application/json": url + "data/json/"}
    for media_type, address in downloads.items():
        response = client.get(urlsplit(address).path)
        assert response.status_code == 200 and response["Content-Type"].startswith(media_type)

    # The time the printed figures describe: from the oldest measurement or the oldest printed price's
    # effective date (it applies from that day) to the newest, and when the data last changed.
    [coverage] = values(dataset, "temporalCoverage")
    start, end = coverage.split("/")
    printed = page.page_data.printed_figures
    measured = [row.snapshot.measured_at for figure in printed for row in figure.measurements]
    effective = [figure.price.effective_date for figure in printed if figure.price is not None]
    assert effective and min(effective) < min(measured).date()
    assert start == min(effective).isoformat()  # the demo's prices are older than its measurements
    # In whole seconds: machine-readable times carry no microseconds.
    assert datetime.fromisoformat(end) >= max(measured).replace(microsecond=0)
    [modified] = dataset[SCHEMA + "dateModified"]
    assert modified["@type"] == SCHEMA + "Date" and datetime.fromisoformat(modified["@value"]) >= datetime.fromisoformat(end)

    # Creators: publishers the page prints, each once.
    creators = [values(creator, "name")[0] for creator in dataset[SCHEMA + "creator"]]
    assert len(creators) == len(set(creators)) and {"Artificial Analysis", "Baseten", "Z.ai"} <= set(creators)
    printed = soup.get_text(" ")
    assert all(name in printed for name in creators), [name for name in creators if name not in printed]


def test_the_spanish_dataset_points_at_the_spanish_downloads(client, demo_site):
    _document, dataset, _soup = page_dataset(client, "/es/api-llm-mas-rapida/")
    [url] = ids(dataset, "url")
    assert url.endswith("/es/api-llm-mas-rapida/")
    contents = sorted(ids(entry, "contentUrl")[0] for entry in dataset[SCHEMA + "distribution"])
    assert contents == [url + "datos/csv/", url + "datos/json/"]
    assert "https://artificialanalysis.ai/terms-of-use" in ids(dataset, "license")


def test_a_licence_noted_as_text_is_not_given_as_the_licence(client, demo_site):
    """An editor's note in Source.licence ("Attribution required") stays out of the Dataset; a source
    with no licence address adds no licence."""
    from benchmarks.models import Source

    Source.objects.filter(publisher="Artificial Analysis").update(licence="Attribution required", licence_url="")
    from benchmarks.cache import bump_data_generation

    bump_data_generation()
    document, dataset, _soup = page_dataset(client, "/en/fastest-llm-api/")
    assert "Attribution required" not in json.dumps(document)
    assert "https://artificialanalysis.ai/terms-of-use" not in ids(dataset, "license")
    assert ids(dataset, "license"), "the price pages' terms are still there"


def test_a_correction_moves_date_modified_and_first_party_data_has_a_licence(client, demo_site):
    """dateModified is when the figures last changed: a correction published after the measurement moves
    it (it stayed at the measurement time). The scorecard, built on our own measurements, names their
    licence (it had none)."""
    from decimal import Decimal

    from django.core.cache import cache

    from benchmarks.models import Measurement
    from tests.figures_support import publish_correction

    row = Measurement.objects.filter(snapshot__status="published", metric="output_speed_median",
                                     endpoint__provider__slug="baseten", endpoint__model__slug="glm-5-3").first()
    correction = publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal("140")})
    cache.clear()
    for url in ("/en/fastest-llm-api/", "/es/api-llm-mas-rapida/"):
        _document, dataset, _soup = page_dataset(client, url)
        [modified] = values(dataset, "dateModified")
        assert datetime.fromisoformat(modified) == correction.published_at.replace(microsecond=0), url

    for url in ("/en/glm-5-3-flash-providers/", "/es/proveedores-glm-5-3-flash/"):
        _document, dataset, _soup = page_dataset(client, url)
        assert "https://creativecommons.org/licenses/by/4.0/" in ids(dataset, "license"), url
