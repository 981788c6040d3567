"""Bar charts draw what they say: every bar's length is proportional to its value, on a desktop and a phone."""

import pytest

from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

ARTICLES = ("/en/fastest-llm-api/", "/es/api-llm-mas-rapida/")
# A bar is drawn to a tenth of a percent of the longest; layout rounds to fractions of a pixel.
TOLERANCE = 0.02

BARS = """() => [...document.querySelectorAll('figure.bar-chart')].map(chart =>
  [...chart.querySelectorAll('tbody tr')].filter(row => row.querySelector('.bar')).map(row => ({
    name: row.querySelector('th').textContent.trim(),
    value: parseFloat(row.querySelector('data.bar-value').getAttribute('value')),
    width: row.querySelector('.bar').getBoundingClientRect().width,
  })))"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "375px"])
def test_bar_lengths_are_proportional_to_the_values(open_page, viewport):
    page = open_page(viewport)
    for url in ARTICLES:
        assert page.goto(url).ok
        charts = page.evaluate(BARS)
        assert len(charts) >= 4, f"{url}: expected the demo's bar charts, found {len(charts)}"
        for bars in charts:
            assert len(bars) >= 3
            longest = max(bars, key=lambda bar: bar["value"])
            assert longest["width"] > 40, f"{url} at {viewport['width']} px: the longest bar is a stub: {longest}"
            px_per_unit = longest["width"] / longest["value"]
            for bar in bars:
                drawn, proportional = bar["width"], bar["value"] * px_per_unit
                assert abs(drawn - proportional) <= max(TOLERANCE * proportional, 0.5), (
                    f"{url} at {viewport['width']} px: {bar['name']} ({bar['value']}) is drawn {drawn:.1f} px, "
                    f"{drawn / proportional:.2f}× the {proportional:.1f} px its value calls for beside "
                    f"{longest['name']} ({longest['value']}, {longest['width']:.1f} px)"
                )
