"""Every figure a reader sees has the same ⓘ trail (source, date, method) by keyboard and touch, and every
interactive element of an article is a touch target WCAG 2.2 AA accepts (2.5.8, Target Size (Minimum)).

axe-core is not vendored and not installable offline here, so the target-size check is measured directly:
each visible link, button, summary and focusable element is at least 24×24 CSS px, or no 24 px circle
centred on it meets another target (the spacing exception), or it is a link inside a sentence of text
(the inline exception).
"""

import pytest
from playwright.sync_api import expect

from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

PAGES = {
    "en": ("/en/fastest-llm-api/", "/en/glm-5-3-flash-providers/"),
    "es": ("/es/api-llm-mas-rapida/", "/es/proveedores-glm-5-3-flash/"),
}
SOURCE_WORD = {"en": "Source:", "es": "Fuente:"}

# Figures printed without a trail button: prose references, table cells holding a figure, list sentences.
UNTRAILED = """() => {
  const trail = el => el && el.matches('button.prov-toggle');
  const out = [];
  // A prose figure: its value, its footnote marker, then the button.
  document.querySelectorAll('.dataref:not(.dataref--missing)').forEach(ref => {
    let next = ref.nextElementSibling;
    if (next && next.matches('sup.fn')) next = next.nextElementSibling;
    if (!trail(next)) out.push('prose: ' + ref.textContent);
  });
  document.querySelectorAll('table.provider-table td.num').forEach(cell => {
    if (cell.textContent.trim() !== '—' && !cell.querySelector('.prov-toggle'))
      out.push('table cell: ' + cell.textContent.trim());
  });
  document.querySelectorAll('.provider-list li').forEach(item => {
    if (/\\d/.test(item.textContent) && !item.querySelector('.prov-toggle')) out.push('list: ' + item.textContent);
  });
  return {missing: out, refs: document.querySelectorAll('.dataref').length,
          deltas: [...document.querySelectorAll('table.provider-table thead th')].filter(th => th.textContent.includes('Δ')).length,
          items: document.querySelectorAll('.provider-list li').length};
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_prose_references_differences_and_list_sentences_have_the_trail_button(open_page, lang):
    page = open_page(DESKTOP)
    seen = {"refs": 0, "deltas": 0, "items": 0}
    for url in PAGES[lang]:
        assert page.goto(url).ok
        found = page.evaluate(UNTRAILED)
        assert found["missing"] == [], f"{url}: figures without a ⓘ trail: {found['missing']}"
        for key in seen:
            seen[key] += found[key]
    assert all(seen.values()), f"the demo pages no longer hold every kind of figure this test covers: {seen}"

    # A prose reference's trail opens on a tap or a click, names the source and the date, and closes with Escape.
    assert page.goto(PAGES[lang][0]).ok
    button = page.locator(".dataref:not(.dataref--missing) + sup.fn + .prov-toggle").first
    button.scroll_into_view_if_needed()
    button.click()
    panel = page.locator(".dataref:not(.dataref--missing) + sup.fn + .prov-toggle + .prov-panel").first
    expect(panel).to_be_visible()
    expect(panel).to_contain_text(SOURCE_WORD[lang])
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    # The icon is drawn: no font needs a U+24D8 glyph.
    assert page.locator(".prov-toggle svg").count() == page.locator(".prov-toggle").count()
    assert "ⓘ" not in page.evaluate("document.body.innerText")
    assert page.console_errors == []


TARGETS = """() => {
  const selector = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  const visible = el => {
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0
      && box.right > 0 && box.left < document.documentElement.scrollWidth;
  };
  // WCAG's inline exception: a link in a sentence, sized by the line height of the text around it.
  const inSentence = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const block = el.closest('p, li, td, th, dd, figcaption, blockquote');
    if (!block) return false;
    const others = [...block.childNodes].filter(node => node !== el && !node.contains?.(el))
      .map(node => node.textContent).join('').replace(/\\s+/g, '');
    return others.length > 0;
  };
  const all = [...document.querySelectorAll(selector)].filter(visible);
  const boxes = all.map(el => el.getBoundingClientRect());
  const small = all.map((el, i) => (boxes[i].width < 23.95 || boxes[i].height < 23.95) && !inSentence(el));
  const centre = b => [b.left + b.width / 2, b.top + b.height / 2];
  const circleMeetsBox = (c, b) => {
    const dx = Math.max(b.left - c[0], 0, c[0] - b.right), dy = Math.max(b.top - c[1], 0, c[1] - b.bottom);
    return dx * dx + dy * dy < 12 * 12 - 0.01;
  };
  const failures = [];
  all.forEach((el, i) => {
    if (!small[i]) return;
    const c = centre(boxes[i]);
    const clash = all.findIndex((other, j) => j !== i && !other.contains(el) && !el.contains(other) && (
      circleMeetsBox(c, boxes[j]) ||
      (small[j] && Math.hypot(c[0] - centre(boxes[j])[0], c[1] - centre(boxes[j])[1]) < 24 - 0.01)));
    if (clash >= 0) failures.push(`${el.outerHTML.slice(0, 90)} ${boxes[i].width.toFixed(1)}×${boxes[i].height.toFixed(1)} px, `
      + `too close to ${all[clash].outerHTML.slice(0, 60)}`);
  });
  return {count: all.length, failures};
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "375px"])
def test_every_target_on_the_articles_is_large_enough_or_spaced(open_page, viewport):
    page = open_page(viewport)
    for url in PAGES["en"] + PAGES["es"]:
        assert page.goto(url).ok
        # Opened trails hold links too: measure the page with every trail open.
        page.evaluate("() => document.querySelectorAll('.prov-panel').forEach(panel => { panel.hidden = false; })")
        found = page.evaluate(TARGETS)
        assert found["count"] > 50, f"{url}: only {found['count']} targets measured"
        assert found["failures"] == [], (
            f"{url} at {viewport['width']} px: {len(found['failures'])} targets under 24×24 px:\n"
            + "\n".join(found["failures"][:40])
        )
