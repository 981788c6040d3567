"""The Spanish catalog is complete and compiled, and no English interface string reaches a Spanish page.

The list of English strings is derived from the catalog itself, so a newly marked string is checked
as soon as makemessages picks it up.
"""

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from django.utils import translation
from wagtail.models import Page

from .po_catalog import read_po

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "es" / "LC_MESSAGES"
PO, MO = LOCALE / "django.po", LOCALE / "django.mo"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")
# Text a reader can perceive besides element content (screen readers read these out).
PERCEIVED_ATTRIBUTES = ("aria-label", "alt", "title", "placeholder")


@pytest.fixture(scope="module")
def entries():
    return read_po(PO)


def test_every_message_has_a_spanish_translation_and_none_is_fuzzy(entries):
    fuzzy_lines = [
        number
        for number, line in enumerate(PO.read_text().splitlines(), 1)
        if re.match(r"#,.*\bfuzzy\b", line)
    ]
    untranslated = [f"line {entry.line}: {entry.msgid!r}" for entry in entries if not all(entry.translations)]
    plural_gaps = [
        f"line {entry.line}: {entry.msgid!r}"
        for entry in entries
        if entry.msgid_plural and len(entry.msgstr) < 2
    ]
    assert not fuzzy_lines, f"fuzzy entries at lines {fuzzy_lines}: check the translation and remove the flag"
    assert not untranslated, "untranslated messages:\n" + "\n".join(untranslated)
    assert not plural_gaps, "plural messages without every form:\n" + "\n".join(plural_gaps)
    assert len(entries) > 20


@pytest.mark.skipif(
    shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed (make test installs it)"
)
def test_msgfmt_accepts_the_catalog(tmp_path):
    # --check verifies python-format placeholders match between msgid and msgstr, and the header.
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(PO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_compiled_catalog_matches_the_po_file(entries):
    assert MO.exists(), "locale/es/LC_MESSAGES/django.mo is missing: run `python manage.py compilemessages`"
    with MO.open("rb") as handle:
        compiled = {
            key: value for key, value in gettext.GNUTranslations(handle)._catalog.items() if key != ""
        }
    expected = {}
    for entry in entries:
        msgid = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt is not None else entry.msgid
        if entry.msgid_plural:
            expected.update({(msgid, index): text for index, text in entry.msgstr.items()})
        else:
            expected[msgid] = entry.msgstr[0]
    stale = {key for key in expected.keys() | compiled.keys() if expected.get(key) != compiled.get(key)}
    assert not stale, (
        f"django.mo differs from django.po for {sorted(map(str, stale))[:10]}: run `python manage.py compilemessages`"
    )


# --- no English on Spanish pages -----------------------------------------------------------------


def english_interface_strings(entries):
    """English fragments a Spanish page must not show, derived from the catalog.

    Each msgid (and plural msgid) is cut at its placeholders; a fragment is kept when it has at least four
    characters and a letter, and does not occur in any Spanish translation (brand names such as
    "Endpoint Accuracy Index v1.0" or units such as "tokens/s" are legitimately shared).
    """
    spanish = "\n".join(text for entry in entries for text in entry.translations)
    fragments = set()
    for entry in entries:
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            if english in entry.translations:
                continue
            for piece in PLACEHOLDER.split(english):
                piece = piece.strip(" \t\n·:,.;()“”\"'")
                if len(piece) < 4 or not re.search(r"[A-Za-z]", piece):
                    continue
                if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", spanish, re.IGNORECASE):
                    continue
                fragments.add(piece)
    return sorted(fragments, key=len, reverse=True)


def perceived_text(html, language):
    """Visible text plus perceivable attributes, minus head/script/style and parts marked as another language."""
    soup = BeautifulSoup(html, "html.parser")
    for element in soup.find_all(["head", "script", "style", "template", "noscript"]):
        element.decompose()
    for element in soup.find_all(attrs={"lang": True}):
        if element.name != "html" and not element["lang"].startswith(language):
            element.decompose()
    attributes = [
        element[name] for name in PERCEIVED_ATTRIBUTES for element in soup.find_all(attrs={name: True})
    ]
    return " ".join(" ".join([soup.get_text(" "), *attributes]).split())


def fallen_back_data(language="es"):
    """English values readers legitimately see on Spanish pages: data fields that fall back to English
    (docs/translation.md) and have no Spanish value. They are data, not interface text."""
    from localized.alternates import _fields_without_fallback
    from localized.tracking import is_blank, tracked_fields, tracked_models

    values = set()
    for model in tracked_models():
        no_fallback = set(_fields_without_fallback(model))
        for field in tracked_fields(model):
            if field in no_fallback:
                continue
            for english, translated in model.objects.values_list(f"{field}_en", f"{field}_{language}"):
                if not is_blank(english) and is_blank(translated):
                    values.add(english)
    return sorted(values, key=len, reverse=True)


def without(text, values):
    for value in values:
        text = text.replace(value, " ")
    return text


def english_leaks(text, strings):
    return [s for s in strings if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)]


def _addresses(language):
    pages = Page.objects.live().filter(depth__gt=1).specific().order_by("path")
    with translation.override(language):
        return [page.get_url() for page in pages] + [f"/{language}/no-such-page/"]


def test_spanish_pages_show_no_english_interface_text(client, demo_site, entries):
    strings = english_interface_strings(entries)
    assert len(strings) > 20, "the catalog yields too few English strings to make this test meaningful"
    addresses = _addresses("es")
    assert len(addresses) > 2
    data = fallen_back_data()
    leaks = {}
    for address in addresses:
        response = client.get(address)
        assert response.status_code in (200, 404), address
        assert '<html lang="es">' in response.text, address
        found = english_leaks(without(perceived_text(response.text, "es"), data), strings)
        if found:
            leaks[address] = found
    assert not leaks, f"English interface strings on Spanish pages: {leaks}"


def test_the_leak_check_finds_english_on_english_pages(client, demo_site, entries):
    """The same check run on /en/ must find interface strings, or it could never fail."""
    strings = english_interface_strings(entries)
    found = set()
    for address in _addresses("en"):
        found |= set(english_leaks(perceived_text(client.get(address).text, "en"), strings))
    assert {"Skip to content", "Articles", "Page not found"} <= found
