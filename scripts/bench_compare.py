"""Side by side over HTTP: what a reader and an editor wait for here, and on a running wagtail/bakerydemo.

scripts/bench_serving.py calls this for its goals table. Both sites are measured the same way, from this
process, over loopback HTTP: a page's GET, the admin's edit view, and the edit form's real POST with
"Publish", its fields read from the edit view's HTML as the browser sends them (the StreamField from
the editor's own block definitions and values, `data-w-block-*`). Rounds are interleaved (ours, theirs,
ours, ...) and each figure is the median of its rounds, so a machine that gets busier half-way through
moves both sides. Nothing of bakerydemo is here but its address and an admin login.
"""

import html
import http.cookiejar
import json
import os
import re
import statistics
import time
import urllib.parse
import urllib.request

from bs4 import BeautifulSoup

EDIT_FORM_ID = "page-edit-form"


class Site:
    """A site over HTTP with its own cookies (an admin session once logged in)."""

    def __init__(self, base, name):
        self.base, self.name = base.rstrip("/"), name
        self.jar = http.cookiejar.CookieJar(_LoopbackPolicy())
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def request(self, path, data=None, headers=None):
        """(status, body bytes, milliseconds) of one request; redirects are answered, not followed."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, body, headers=headers or {})
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=120) as response:
                content, status = response.read(), response.status
        except urllib.error.HTTPError as error:
            content, status = error.read(), error.code
        return status, content, (time.perf_counter() - start) * 1000

    def get(self, path, **headers):
        status, content, ms = self.request(path, headers=headers)
        if status != 200:
            raise SystemExit(f"{self.name}: GET {path} answered {status}")
        return content, ms

    def login(self, username, password):
        content, _ms = self.get("/admin/login/")
        token = _csrf_token(content.decode())
        status, _content, _ms = self.request(
            "/admin/login/", {"csrfmiddlewaretoken": token, "username": username, "password": password, "next": "/admin/"}
        )
        if status != 302:
            raise SystemExit(f"{self.name}: the admin login as {username!r} failed (HTTP {status}): check the login options")

    def edit_view(self, page_id):
        content, ms = self.get(f"/admin/pages/{page_id}/edit/")
        return content.decode(), ms

    def publish(self, page_id):
        """The edit view, then its form posted back untouched with "Publish": (POST ms, GET ms)."""
        page, get_ms = self.edit_view(page_id)
        data = edit_form_post(page)
        data["action-publish"] = "action-publish"
        status, content, ms = self.request(f"/admin/pages/{page_id}/edit/", data)
        if status != 302:
            errors = re.findall(r'class="error-message"[^>]*>\s*<span>([^<]+)', content.decode(errors="replace"))
            raise SystemExit(f"{self.name}: the publish POST answered {status} {errors[:5]}")
        return ms, get_ms


class _LoopbackPolicy(http.cookiejar.DefaultCookiePolicy):
    """Production settings mark the session and CSRF cookies Secure; on loopback they travel over plain
    HTTP, as they would behind the TLS proxy."""

    def return_ok_secure(self, cookie, request):
        return True


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _csrf_token(page):
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if match is None:
        raise SystemExit("no CSRF token on the page")
    return match.group(1)


# --- the edit form as the browser posts it -----------------------------------------------------


def edit_form_post(page):
    """{name: value or [values]} the edit form posts: its inputs as rendered, and each StreamField as the
    editor's JavaScript writes it from the block definitions and values the page carries."""
    soup = BeautifulSoup(page, "html.parser")
    form = soup.find("form", id=EDIT_FORM_ID)
    if form is None:
        raise SystemExit(f"no <form id={EDIT_FORM_ID!r}> on the edit view")
    data = {}
    for element in form.find_all(["input", "textarea", "select"]):
        name = element.get("name")
        if not name or element.has_attr("disabled"):
            continue
        if element.name == "textarea":
            data[name] = element.text.removeprefix("\n")
        elif element.name == "select":
            chosen = element.find_all("option", selected=True) or element.find_all("option")[:1]
            values = [option.get("value", "") for option in chosen]
            data[name] = values if element.has_attr("multiple") else (values[0] if values else "")
        elif element.get("type") in {"checkbox", "radio"}:
            if element.has_attr("checked"):
                data.setdefault(name, []).append(element.get("value", "on"))
        elif element.get("type") not in {"submit", "button", "file", "image"}:
            data[name] = element.get("value", "")
    for block in form.find_all(attrs={"data-w-block-data-value": True}):
        definition = _unpack(json.loads(html.unescape(block["data-w-block-data-value"])))
        value = json.loads(html.unescape(block["data-w-block-arguments-value"]))[0]
        _stream_fields(definition, value, block["id"], data)
    return data


def _unpack(packed):
    """Telepath's packing undone: an object sent twice is sent once with `_id`, then as `{"_ref": id}`."""
    seen = {}

    def walk(node):
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "_ref" in node:
            return seen[node["_ref"]]
        if "_val" in node:  # a plain value, sent as it is
            result = node["_val"]
        elif "_dict" in node:  # a dict whose keys could clash with telepath's own
            result = {key: walk(item) for key, item in node["_dict"].items()}
        elif "_list" in node:
            result = [walk(item) for item in node["_list"]]
        else:
            result = {key: walk(item) for key, item in node.items() if key != "_id"}
        if "_id" in node:
            seen[node["_id"]] = result
        return result

    return walk(packed)


def _stream_fields(block, value, prefix, out):
    kind, args = block.get("_type", ""), block.get("_args", [])
    if kind == "wagtail.blocks.StreamBlock":
        children = {child["_args"][0]: child for _group, group in args[1] for child in group}
        items = list(value or [])
        out[f"{prefix}-count"] = str(len(items))
        for i, item in enumerate(items):
            out[f"{prefix}-{i}-type"] = item["type"]
            out[f"{prefix}-{i}-deleted"] = ""
            out[f"{prefix}-{i}-order"] = str(i)
            out[f"{prefix}-{i}-id"] = item.get("id") or ""
            _stream_fields(children[item["type"]], item["value"], f"{prefix}-{i}-value", out)
    elif kind == "wagtail.blocks.StructBlock":
        for child in args[1]:
            name = child["_args"][0]
            _stream_fields(child, (value or {}).get(name), f"{prefix}-{name}", out)
    elif kind == "wagtail.blocks.ListBlock":
        items = list(value or [])
        out[f"{prefix}-count"] = str(len(items))
        for i, item in enumerate(items):
            out[f"{prefix}-{i}-deleted"] = ""
            out[f"{prefix}-{i}-order"] = str(i)
            out[f"{prefix}-{i}-id"] = item.get("id") or ""
            _stream_fields(args[1], item.get("value"), f"{prefix}-{i}-value", out)
    elif kind == "wagtail.blocks.FieldBlock":
        widget = args[1].get("_type", "")
        if widget.endswith("CheckboxInput"):
            if value:
                out[prefix] = "on"
        elif isinstance(value, dict):  # choosers: the chosen object's id
            out[prefix] = str(value.get("id", ""))
        elif isinstance(value, list):
            out[prefix] = [str(item) for item in value]
        else:
            out[prefix] = "" if value is None else str(value)
    elif kind != "wagtail.blocks.StaticBlock":
        raise SystemExit(f"the edit form holds a block this benchmark cannot post: {kind}")


# --- what to measure on a site -----------------------------------------------------------------


def largest_blog_post(site, index="/blog/"):
    """(path, bytes) of bakerydemo's largest blog post, found from its blog index like a reader."""
    page, _ms = site.get(index)
    paths = sorted(set(re.findall(rf'href="({re.escape(index)}[a-z0-9-]+/)"', page.decode())))
    if not paths:
        raise SystemExit(f"{site.name}: no post linked from {index}")
    return max(((path, len(site.get(path)[0])) for path in paths), key=lambda item: item[1])


def page_id_of(site, path):
    """The page id behind a public URL, read from the admin's user bar (the site's session is an admin's)."""
    page, _ms = site.get(path)
    match = re.search(r"/admin/pages/(\d+)/edit/", page.decode())
    if match is None:
        raise SystemExit(f"{site.name}: no edit link on {path} (is the login an editor's?)")
    return int(match.group(1))


def interleaved(measures, rounds, per_round, load_limit=None):
    """{name: median ms} of `measures` ({name: function returning ms}) over `rounds` rounds, each running
    every measure `per_round` times in turn. Also returns the load averages seen at each round."""
    times = {name: [] for name in measures}
    loads = []
    for _ in range(rounds):
        loads.append(os.getloadavg()[0])
        for name, measure in measures.items():
            times[name] += [measure() for _ in range(per_round)]
    return {name: statistics.median(values) for name, values in times.items()}, loads


# --- this project against bakerydemo (or, without one, its own plain page) ---------------------

SESSION_SKIPS_PAGE_CACHE = {"Cookie": "sessionid=bench-anonymous"}  # config/page_cache.py: no cache with a session


def side_by_side(ours_live, ours_stored, editor, page_id, reference, rounds, before_each):
    """Interleaved medians (ms) of what a reader and an editor wait for, here and on `reference`.

    ours_live / ours_stored: Sites of gunicorns that render the article in the request / serve its stored
    rendering; editor: a Site logged in to ours; reference: {"page": (Site, path), "editor": (Site, page
    id) or None}. before_each() empties this run's caches before a render (not timed)."""
    article = "/en/fastest-llm-api/"
    ref_site, ref_path = reference["page"]

    def timed_get(site, path):
        def measure():
            before_each()
            return site.get(path, **SESSION_SKIPS_PAGE_CACHE)[1]
        return measure

    reads, read_loads = interleaved({
        "live": timed_get(ours_live, article), "stored": timed_get(ours_stored, article),
        "reference": timed_get(ref_site, ref_path),
    }, rounds, 3)
    edits = {"edit view": lambda: editor.edit_view(page_id)[1]}
    publishes = {"publish": lambda: editor.publish(page_id)[0]}
    if reference.get("editor"):
        ref_editor, ref_id = reference["editor"]
        edits["reference edit view"] = lambda: ref_editor.edit_view(ref_id)[1]
        publishes["reference publish"] = lambda: ref_editor.publish(ref_id)[0]
    edit_times, edit_loads = interleaved(edits, rounds, 2)
    publish_times, publish_loads = interleaved(publishes, rounds, 1)
    return {**reads, **edit_times, **publish_times}, read_loads + edit_loads + publish_loads
