"""docs/caching.md names functions, settings and files: a rename or a move must fail here rather than
leave the doc describing code that no longer exists."""

import importlib
import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "caching.md"
APPS = ("articles", "benchmarks", "config", "editorial", "firstparty", "reviews")
BACKTICKED = re.compile(r"`([^`\s]+)`")


def _backticked():
    return BACKTICKED.findall(DOC.read_text())


def _dotted_names():
    return sorted({name for name in _backticked()
                   if re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+", name) and name.split(".")[0] in APPS})


def _setting_names():
    return sorted({name.split(".", 1)[1] for name in _backticked() if name.startswith("settings.")})


def _paths():
    return sorted({name for name in _backticked() if "/" in name and not name.startswith("/")})


def _resolve(dotted):
    """Import the longest module prefix of `dotted`, then look the rest up as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return obj
    raise ModuleNotFoundError(dotted)


def test_the_doc_names_something_of_each_kind():
    assert len(_dotted_names()) >= 10
    assert "RECONCILE_SECONDS" in _setting_names()
    assert "articles/publishing.py" in _paths()


@pytest.mark.parametrize("dotted", _dotted_names())
def test_each_named_function_exists(dotted):
    _resolve(dotted)


@pytest.mark.parametrize("name", _setting_names())
def test_each_named_setting_exists(name):
    assert hasattr(settings, name), f"docs/caching.md names settings.{name}, which does not exist"


@pytest.mark.parametrize("path", _paths())
def test_each_named_file_exists(path):
    assert (ROOT / path).exists(), f"docs/caching.md names {path}, which does not exist"
