"""Saved upstream answers standing in for the upstream: a refresh replayed from files runs the whole
pipeline (paging, checks, mapping, snapshot, review) without a network or a key.

Files answer the adapter's requests in order, one file per request (page 1, page 2, … of a paged list,
then per-model documents), or one file in the form a snapshot keeps several pages,
`{"pages": [<page 1 body>, <page 2 body>, …]}`, which is split back into its pages verbatim. A gzipped
file is read decompressed. The refresh fails, naming the files, when it asks for more documents than
were given or leaves some unread: a file is never silently ignored.
"""

import gzip
import io
import json
from pathlib import Path

from django.conf import settings

from .errors import ConfigurationError, describe
from .http_client import FetchedDocument, size_text

GZIP_MAGIC = b"\x1f\x8b"


def decode(name, data):
    """The text of a saved answer (gzip read decompressed), at most REFRESH_MAX_BODY_BYTES."""
    cap = settings.REFRESH_MAX_BODY_BYTES
    if data[:2] == GZIP_MAGIC:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                data = unpacked.read(cap + 1)
        except (OSError, EOFError) as exc:
            raise ConfigurationError(f"{name}: not a readable gzip file ({exc})") from None
    if len(data) > cap:
        raise ConfigurationError(f"{name}: larger than the {size_text(cap)} a refresh reads (REFRESH_MAX_BODY_BYTES)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigurationError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def split_pages(text):
    """The page bodies of `{"pages": [...]}` (how a snapshot keeps several pages), verbatim but for the
    whitespace around them; None for any other document."""
    if not text.lstrip().startswith("{") or '"pages"' not in text[:200]:
        return None
    try:
        whole = json.loads(text)
    except ValueError:
        return None
    if not (isinstance(whole, dict) and list(whole) == ["pages"] and isinstance(whole["pages"], list)):
        return None
    decoder, pages = json.JSONDecoder(), []
    index = text.index("[", text.index('"pages"')) + 1
    while True:
        while text[index] in " \t\r\n,":
            index += 1
        if text[index] == "]":
            return pages
        _value, end = decoder.raw_decode(text, index)
        pages.append(text[index:end])
        index = end


class SavedPayloads:
    """The documents of saved files, in the order the refresh will ask for them."""

    def __init__(self, files):
        """`files`: [(name, bytes)], in request order."""
        self.names = [name for name, _data in files]
        self.documents = []  # (label, text)
        for name, data in files:
            text = decode(name, data)
            pages = split_pages(text)
            if pages is None:
                self.documents.append((name, text))
            else:
                self.documents += [(f"{name}, page {n}", page) for n, page in enumerate(pages, start=1)]
        if not self.documents:
            raise ConfigurationError("no saved file was given to replay")
        self.read = 0

    @classmethod
    def from_paths(cls, paths):
        files = []
        for path in map(Path, paths):
            try:
                files.append((path.name, path.read_bytes()))
            except OSError as exc:
                raise ConfigurationError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        return cls(files)

    @classmethod
    def from_storage(cls, storage, stored):
        """`stored`: [{"name": shown name, "stored": name in `storage`}] (the admin's replay)."""
        files = []
        for item in stored:
            try:
                with storage.open(item["stored"], "rb") as handle:
                    files.append((item["name"], handle.read(settings.REFRESH_MAX_BODY_BYTES + 1)))
            except OSError as exc:
                raise ConfigurationError(f"{item['name']}: the uploaded file is gone ({exc})") from None
        return cls(files)

    def next(self, asked):
        """The next document, for the request the adapter describes as `asked`."""
        if self.read >= len(self.documents):
            raise ConfigurationError(
                f"{asked}: the refresh asked for document {self.read + 1}, but the files given hold only "
                f"{len(self.documents)} ({', '.join(self.names)}); give one file per request, in the order "
                "the refresh makes them (docs/upstreams.md)"
            )
        label, text = self.documents[self.read]
        self.read += 1
        return label, text

    def check_all_read(self):
        unread = [label for label, _text in self.documents[self.read:]]
        if unread:
            raise ConfigurationError(
                f"the refresh made {self.read} requests and left {len(unread)} of the given documents unread "
                f"({', '.join(unread)}): check the source's parameters and the files"
            )

    def describe(self):
        return ", ".join(self.names)


class ReplayClient:
    """UpstreamClient's interface, answered from SavedPayloads: no request leaves the machine."""

    def __init__(self, payloads, progress=None, **_options):
        self.payloads = payloads
        self.progress = progress or (lambda message: None)
        self.rate_limit = None
        self.notes = []
        self.waits = []
        self.requests_sent = 0

    def get(self, url, params=None, validators=None, refused=None):
        asked = describe(url) + (f" {params}" if params else "")
        label, text = self.payloads.next(asked)
        self.progress(f"Replaying {label}")
        return FetchedDocument(url=str(url), status=200, text=text)

    def spendable(self):
        return None

    def ensure_budget(self, requests, where, why):
        return None

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
