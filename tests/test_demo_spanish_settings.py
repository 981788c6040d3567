"""The demo's Spanish pages say their run settings in Spanish: the reasoning setting's value is a word
readers translate ('low' is 'bajo'); a run's source title stays English (a name) and says so."""

import pytest
from bs4 import BeautifulSoup

pytestmark = pytest.mark.django_db


def run_settings(client, url):
    soup = BeautifulSoup(client.get(url).text, "html.parser")
    section = soup.select_one(".run-parameters")
    assert section is not None, url
    return section, {dt.get_text(strip=True): dt.find_next_sibling("dd").get_text(strip=True) for dt in section.select("dt")}


def test_the_reasoning_setting_reads_in_the_pages_language(client, demo_site):
    _section, english = run_settings(client, "/en/glm-5-3-flash-providers/")
    assert english["Reasoning setting"] == "low"
    section, spanish = run_settings(client, "/es/proveedores-glm-5-3-flash/")
    assert spanish["Ajuste de razonamiento"] == "bajo"
    # The run's title has a Spanish version: printed in the page's language, not marked English.
    heading = section.select_one("h3")
    assert heading.select_one("span[lang=en]") is None
    assert "GLM-5.3-Flash" in heading.get_text() and "providers" not in heading.get_text()
