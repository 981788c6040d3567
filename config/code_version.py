"""A version of the code that makes pages: a digest of the templates, Python modules, translations and
static files a rendering is made from (or RENDERING_VERSION when a deploy names one, e.g. its commit).

A stored rendering (articles/prerender.py) and a whole page in the page cache (config/page_cache.py) were
made by some code. Without this they outlived a deploy: new templates, a fixed escape or a new
translation reached readers only when the copies expired (an hour for stored renderings). Copies now
record the version they were made by and match only the running one; the pre-render task renders the
articles again at its next run after a deploy.
"""

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("articles", "benchmarks", "firstparty", "reviews", "editorial", "localized", "config", "templates",
         "locale", "assets")
SUFFIXES = {".py", ".html", ".po", ".css", ".js", ".svg", ".txt"}


@lru_cache(maxsize=1)
def code_version():
    """12 hex digits, the same in every process running the same files."""
    named = getattr(settings, "RENDERING_VERSION", "")
    if named:
        return hashlib.sha256(named.encode()).hexdigest()[:12]
    digest = hashlib.sha256()
    for part in PARTS:
        for path in sorted((ROOT / part).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
