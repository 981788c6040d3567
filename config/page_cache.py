"""Whole-page cache for anonymous readers, with ETag/conditional GET and pre-compressed bodies.

Why not a library: wagtail-cache (the maintained Wagtail page cache) declares `wagtail<8.0` in its
latest release, so it cannot be installed next to Wagtail 8; Django's cache middleware keys on a
fixed prefix (we need the data generation in the key), stores whole pickled responses behind a
second header-list lookup, and would cache pages shown to logged-in editors. This middleware keeps
to Django's own helpers (patch_cache_control, get_conditional_response, quote_etag) and adds only
the key and the rules below.

What is cached: GET/HEAD of a page under a language prefix (/en/…, /es/…) from a browser without a
session cookie (so never a logged-in user, and never the admin or a preview, which live under
/admin/), answered 200 without Set-Cookie or `Cache-Control: private`. The key holds the language,
the URL, the data generation (bumped by refreshes and imports) and the page generation (bumped on
publish, unpublish, move and delete), so both purge every copy at once.

An article served from its stored rendering says instead what it shows (`use_dependencies`): the
generations of its dependency keys (the models of its figures, the pages it links to and sits under,
itself; benchmarks/versioning.py), read before its copy was. Its entry stays valid until one of those
keys, or everything, moves: a refresh of another model's data or another page's publish leaves it in
the cache (issue 28: cost follows what changed).

Query strings: the URL in the key carries only the parameters the page's route declares
(config/query_contract.py), so random or tracking parameters are answered from the clean URL's copy
instead of rendering the page once per string. The route's declaration is learnt when the page is
rendered (the page's serve() sets it on the request) and kept in the stored entry, much as Django's
cache middleware keeps a response's Vary headers: a hit looks up the clean URL's entry first, and
looks again with the declared parameters only when the route declares some and the request has them
(a route with parameters also leaves its names under the clean URL, for when its bare copy is not
stored yet). A response of a view that declares no contract (not a page) is stored only for a URL
without a query string.
"""

import gzip
import hashlib
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, QueryDict
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from benchmarks.cache import (
    GENERATION_KEY,
    bump_generation_key,
    data_generation,
    data_generation_bumped,
    dependencies_bumped,
    generation_value,
)
from config.code_version import code_version
from config.query_contract import DECLARED, declared_query

PAGES_GENERATION_KEY = "pages:generation"
HEADER = "X-Page-Cache"
# Headers worth keeping in the stored copy (the rest are per-response or added again on the way out).
# Content-Disposition and X-Robots-Tag: an article's figure downloads (articles/data_routes.py) are
# cached like its pages and must keep their file name and noindex.
KEPT_HEADERS = ("Content-Type", "Content-Language", "Content-Security-Policy", "X-Frame-Options",
                "Referrer-Policy", "X-Content-Type-Options", "Cross-Origin-Opener-Policy",
                "Content-Disposition", "X-Robots-Tag")

# How the view made this response (articles/prerender.py): passed on with a miss, not kept for hits.
RENDER_HEADERS = ("X-Article-Render",)
# Set on a cacheable request (the view may then say what its response shows, `use_dependencies`).
WANTS_DEPENDENCIES = "page_cache_wants_dependencies"
DEPENDENCIES = "page_cache_dependencies"


def wants_dependencies(request):
    """Whether the page cache will keep this response, so the view's dependencies are worth reading."""
    return getattr(request, WANTS_DEPENDENCIES, False)


def use_dependencies(request, generations):
    """The response shows exactly what these dependency generations ({cache key: generation}, from
    benchmarks.cache.dependency_generations, read before the content was) cover."""
    setattr(request, DEPENDENCIES, dict(generations))


def page_generation():
    return generation_value(PAGES_GENERATION_KEY)


def bump_page_generation():
    local.forget_generations()
    return bump_generation_key(PAGES_GENERATION_KEY)


def _language(path):
    prefix = path.split("/", 2)[1] if path.count("/") >= 2 else ""
    return prefix if prefix in dict(settings.LANGUAGES) else None


def _cacheable_request(request):
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and _language(request.path) is not None
    )


def _cacheable_response(response):
    cache_control = response.get("Cache-Control", "").lower()
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not any(word in cache_control for word in ("private", "no-cache", "no-store"))
        and "Content-Encoding" not in response
    )


def _read_generations():
    values = cache.get_many([GENERATION_KEY, PAGES_GENERATION_KEY])
    return values.get(GENERATION_KEY) or data_generation(), values.get(PAGES_GENERATION_KEY) or page_generation()


class _ProcessCopies:
    """Each worker keeps the generations for PAGE_CACHE_LOCAL_SECONDS and its most read pages in
    memory, so a hit costs no Redis round trip at all (two per hit otherwise, which capped a cached
    page at a fraction of a static file's throughput). A bump made in this process is seen at once;
    one made by another process after at most PAGE_CACHE_LOCAL_SECONDS. A copy never outlives the
    Redis entry it came from (both expire PAGE_CACHE_SECONDS after the page was rendered)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.generations = None
        self.generations_until = 0.0
        self.dependencies = {}  # {cache key: (generation, read until)}
        self.entries = OrderedDict()

    def current_generations(self):
        seconds = settings.PAGE_CACHE_LOCAL_SECONDS
        now = time.monotonic()
        if seconds <= 0:
            return _read_generations()
        if self.generations is None or now >= self.generations_until:
            self.generations, self.generations_until = _read_generations(), now + seconds
        return self.generations

    def dependency_generations(self, names):
        """{cache key: generation} for these dependency cache keys, from this process's copies when
        they are younger than PAGE_CACHE_LOCAL_SECONDS, else from Redis (one read for the rest)."""
        seconds = settings.PAGE_CACHE_LOCAL_SECONDS
        now = time.monotonic()
        known = {}
        if seconds > 0:
            for name in names:
                copy = self.dependencies.get(name)
                if copy is not None and now < copy[1]:
                    known[name] = copy[0]
        missing = [name for name in names if name not in known]
        if missing:
            read = cache.get_many(missing)
            for name in missing:
                known[name] = read.get(name)
                if seconds > 0 and known[name] is not None:
                    self.dependencies[name] = (known[name], now + seconds)
        return known

    def forget_generations(self, **kwargs):
        self.generations = None
        self.dependencies = {}

    def get(self, key):
        if settings.PAGE_CACHE_LOCAL_SECONDS <= 0:
            return None
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if entry[4] + settings.PAGE_CACHE_SECONDS <= time.time():
                del self.entries[key]
                return None
            self.entries.move_to_end(key)
            return entry

    def put(self, key, entry):
        if settings.PAGE_CACHE_LOCAL_SECONDS <= 0:
            return
        with self.lock:
            self.entries[key] = entry
            while len(self.entries) > settings.PAGE_CACHE_LOCAL_ENTRIES:
                self.entries.popitem(last=False)


local = _ProcessCopies()
data_generation_bumped.connect(local.forget_generations, dispatch_uid="pagecache-local-generations")
dependencies_bumped.connect(local.forget_generations, dispatch_uid="pagecache-local-dependencies")


def _key(request, query):
    """`query`: the declared part of the query string only (config/query_contract.declared_query). The
    key names the page, not what it showed: an entry carries that (`_validity`), checked on each hit."""
    address = request.build_absolute_uri(request.path) + (f"?{query}" if query else "")
    url = hashlib.md5(address.encode(), usedforsecurity=False).hexdigest()
    # v4: the entry tuple's layout; the code version: a deploy never serves a page the old code made.
    return f"page:v4:{code_version()}:{_language(request.path)}:{url}"


def _validity(request, generations):
    """What a stored entry stays valid under: the dependency generations the view read before its
    content ("dependencies"), or the data and page generations read before the view ran."""
    dependencies = getattr(request, DEPENDENCIES, None)
    if dependencies:
        return ("dependencies", tuple(sorted(dependencies.items())))
    return ("generations", generations)


def _still_valid(entry):
    kind, recorded = entry[6]
    if kind == "generations":
        return tuple(recorded) == tuple(local.current_generations())
    names = [name for name, _generation in recorded]
    return local.dependency_generations(names) == dict(recorded)


def _parameters_key(clean_key):
    return f"{clean_key}:parameters"


def _lookup(key):
    entry = local.get(key)
    if entry is None:
        entry = cache.get(key)
        if entry is not None:
            local.put(key, entry)
    if entry is not None and not _still_valid(entry):
        return None  # what it showed changed: the next render stores a new entry under the same key
    return entry


def _cached(request, query):
    """The stored entry that answers this request (`query`: its parsed query string), or None."""
    clean = _key(request, "")
    entry = _lookup(clean)
    if entry is not None:
        parameters = entry[5]
        if parameters is None:  # a view without a contract: its copy answers the bare URL only
            return None if query else entry
    else:
        # No copy of the bare URL yet: the route's parameters, if a request with some was stored.
        parameters = cache.get(_parameters_key(clean)) if query else None
    declared = declared_query(query, parameters or ())
    return _lookup(_key(request, declared)) if declared else entry


def _immutable(cache_control):
    return "immutable" in (cache_control or "").lower()


def _public_headers(response):
    if _immutable(response.get("Cache-Control")):
        # A response that never changes (an article's archived version, articles/as_of_routes.py)
        # keeps its own year-long lifetime; the page cache's short one would have browsers ask again.
        patch_vary_headers(response, ("Accept-Encoding",))
        return
    patch_cache_control(
        response, public=True, max_age=settings.PAGE_BROWSER_SECONDS, s_maxage=settings.PAGE_CACHE_SECONDS
    )
    patch_vary_headers(response, ("Accept-Encoding",))


def _from_entry(request, entry):
    body, gzipped, etag, headers, _created, _parameters, _validity = entry
    use_gzip = "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "")
    if use_gzip:
        etag = etag[:-1] + '-gz"'  # a different representation needs a different validator
    response = HttpResponse(gzipped if use_gzip else body)
    for name, value in headers:
        response[name] = value
    if use_gzip:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    response["Content-Length"] = str(len(response.content))
    _public_headers(response)
    return response


def _answer(request, entry, status):
    response = _from_entry(request, entry)
    response[HEADER] = status
    conditional = get_conditional_response(request, etag=response["ETag"], response=response)
    if request.method == "HEAD" and conditional is response:
        response.content = b""  # Content-Length keeps the GET body's length, as HEAD requires
    return conditional


class PageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not _cacheable_request(request):
            response = self.get_response(request)
            if _language(request.path) is not None and "Cache-Control" not in response:
                # A page shown to a logged-in user: no shared cache may keep it.
                patch_cache_control(response, private=True, no_cache=True)
            response.setdefault(HEADER, "skip")
            return response

        # Parsed before the view runs: the page's serve() removes what its route does not declare.
        query = QueryDict(request.META.get("QUERY_STRING", ""))
        entry = _cached(request, query)
        if entry is not None:
            return _answer(request, entry, "hit")

        # Read before the view: a change committed while it renders moves them past what is stored.
        generations = tuple(local.current_generations())
        setattr(request, WANTS_DEPENDENCIES, True)
        response = self.get_response(request)
        parameters = getattr(request, DECLARED, None)
        if parameters is None and query:
            # Not a page (no declared contract): the parameters may matter, so nobody may keep it.
            if "Cache-Control" not in response:
                patch_cache_control(response, private=True, no_cache=True)
            response.setdefault(HEADER, "skip")
            return response
        if not _cacheable_response(response):
            response.setdefault(HEADER, "skip")
            return response
        if hasattr(response, "render") and callable(response.render) and not response.is_rendered:
            response.render()
        body = response.content
        etag = quote_etag(hashlib.md5(body, usedforsecurity=False).hexdigest())
        headers = [(name, response[name]) for name in KEPT_HEADERS if name in response]
        if _immutable(response.get("Cache-Control")):
            headers.append(("Cache-Control", response["Cache-Control"]))
        entry = (body, gzip.compress(body, compresslevel=6, mtime=0), etag, headers, time.time(), parameters,
                 _validity(request, generations))
        key = _key(request, declared_query(query, parameters or ()))
        cache.set(key, entry, settings.PAGE_CACHE_SECONDS)
        if parameters:
            cache.set(_parameters_key(_key(request, "")), parameters, settings.PAGE_CACHE_SECONDS)
        local.put(key, entry)
        answer = _answer(request, entry, "miss")
        for name in RENDER_HEADERS:
            if name in response:
                answer[name] = response[name]
        return answer
