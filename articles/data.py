"""The data one article shows, loaded in bulk.

Blocks never query in their templates: the page gathers what its blocks need (which models
and sources), then loads measurements, prices and the page's source list in a fixed number
of queries, however many blocks or providers there are.
"""

from collections import defaultdict
from functools import cached_property
from types import SimpleNamespace

from articles.charts.data import TrendDataMixin
from benchmarks.metrics import get_metric
from benchmarks.models import Measurement, Price
from benchmarks.querysets import rank_rows


def _windows(blocks):
    """The leaderboard windows (hours) the blocks average over."""
    hours = {child.block.data_window_hours(child.value) for child in blocks if hasattr(child.block, "data_window_hours")}
    return hours - {0}


def _window_hours(blocks):
    return max(_windows(blocks), default=0)


def with_shared_related(rows, prices=None):
    """`rows` (measurements) and `prices` with their snapshot, source, endpoint, provider and model: one
    instance per id, loaded in two queries for both (a third when a price was typed without a snapshot).
    Joined on every row instead, a page of ~190 figures built ~1,350 model instances (most of its render
    time after the templates), and what a page prints of a snapshot or a source (its name, its trail)
    was worked out again for each row that shows it."""
    from benchmarks.models import Endpoint, Snapshot, Source

    rows = list(rows.select_related(None).defer(None))
    prices = list(prices.select_related(None)) if prices is not None else []
    snapshots = Snapshot.objects.defer("raw_payload").select_related("source").in_bulk(
        {row.snapshot_id for row in rows} | {price.snapshot_id for price in prices if price.snapshot_id}
    )
    endpoints = Endpoint.objects.select_related("provider", "model").in_bulk(
        {row.endpoint_id for row in rows} | {price.endpoint_id for price in prices}
    )
    for row in rows:
        row.snapshot, row.endpoint = snapshots[row.snapshot_id], endpoints[row.endpoint_id]
    sources = {snapshot.source_id: snapshot.source for snapshot in snapshots.values()}
    missing = {price.source_id for price in prices} - set(sources)
    if missing:
        sources.update(Source.objects.in_bulk(missing))
    for price in prices:
        price.endpoint, price.source = endpoints[price.endpoint_id], sources[price.source_id]
        price.snapshot = snapshots[price.snapshot_id] if price.snapshot_id else None
    return rows, prices


def prose_model_ids(children, page=None):
    """Models that data references and checked statements read in any text of the blocks (notes, FAQ
    answers, card texts, captions) and in the page's summary. A block declares the models its own
    figures show; prose may name others. Loaded with the rest, they are part of what the page shows
    (its dependency keys: new data for them retires its stored rendering) and need no second load."""
    from articles.datarefs.refs import refs_in_html, rich_texts
    from articles.statements.markup import has_statements, statements_in_html

    texts = [text.source for child in children for text in rich_texts(child.value)]
    summary = getattr(page, "summary", None) if page is not None else None
    if summary:
        texts.append(summary)
    found = set()
    for html in texts:
        if "<embed" in html:
            found.update(ref.model_id for ref in refs_in_html(html))
        if has_statements(html):
            found.update(pk for claim, _words in statements_in_html(html) if claim is not None for pk in claim.model_ids)
    return sorted(found)


class WindowMixin:
    """Averages over a time window, for leaderboards: one query for the page's widest window."""

    @cached_property
    def window_rows(self):
        from datetime import timedelta

        from django.utils import timezone

        hours = _window_hours(self.blocks)
        models, _sources = self.requirements
        if not hours or not models:
            return []
        since = (self.as_of or timezone.now()) - timedelta(hours=hours)
        return list(Measurement.objects.in_window(since, as_of=self.as_of, models=list(models)))

    def window_average(self, model, metric, source, hours):
        """[(endpoint, average, rows behind it)] over the last `hours` before the page's moment."""
        from datetime import timedelta

        from django.utils import timezone

        since = (self.as_of or timezone.now()) - timedelta(hours=hours)
        groups = {}
        for row in self.window_rows:
            if row.endpoint.model_id != model.pk or row.metric != metric or row.snapshot.measured_at < since:
                continue
            if source is not None and row.snapshot.source_id != source.pk:
                continue
            groups.setdefault(row.endpoint_id, (row.endpoint, []))[1].append(row)
        return [
            (endpoint, sum(r.value for r in rows) / len(rows), tuple(rows)) for endpoint, rows in groups.values()
        ]


class PageData(WindowMixin, TrendDataMixin):
    def __init__(self, page=None, blocks=(), as_of=None, page_sources=None):
        self.page = page
        self.blocks = blocks
        self.as_of = as_of
        self._page_sources = page_sources
        # Sources a block tried to footnote that the page's list lacks (see article_tags.footnotes).
        self.missing_citations = set()
        # New data may cite a source the editor has not listed yet (a price from a new page):
        # it is numbered after the list, in the order first cited, rather than left unmarked.
        self.appended_sources = []
        # {(id(value), language): (value, result)}: see computed().
        self._computed = {}
        # {trail key: HTML}: the ⓘ panels this render printed (article_tags.provenance_control_tag).
        self.rendered_trails = {}

    def computed(self, value, compute):
        """`compute(value, self)` once per block value and language for this page's data.

        The page's head (the schema.org Dataset, the sources shown) reads every figure before the
        body renders them: without this, each data block computed its rows, texts and figures twice
        per render. The value is kept beside its result, so a recycled id() never matches."""
        from django.utils.translation import get_language

        key = (id(value), get_language())
        hit = self._computed.get(key)
        if hit is None or hit[0] is not value:
            hit = self._computed[key] = (value, compute(value, self))
        return hit[1]

    # --- what the blocks need ---------------------------------------------------------------
    @cached_property
    def requirements(self):
        from articles.blocks.choosers import shared_chooser_lookups

        # The body's blocks are converted here, type by type; each model, source or endpoint they
        # choose is then loaded once for the page (a query per model class and block type before).
        with shared_chooser_lookups():
            children = list(self.blocks)
        models, sources = {}, {}
        for child in children:
            collect = getattr(child.block, "data_requirements", None)
            if collect is None:
                continue
            for model, source in collect(child.value):
                if model is not None:
                    models[model.pk] = model
                if source is not None:
                    sources[source.pk] = source
        for pk in prose_model_ids(children, self.page):
            models.setdefault(pk, SimpleNamespace(pk=pk))
        return models, sources

    # --- bulk loads (one query each) --------------------------------------------------------
    @cached_property
    def _loaded(self):
        """(measurements, prices) of the blocks' models, read together so they share their instances."""
        models, _sources = self.requirements
        if not models:
            return [], []
        models = list(models)
        return with_shared_related(Measurement.objects.latest(as_of=self.as_of, models=models),
                                   Price.objects.current(as_of=self.as_of, models=models))

    @cached_property
    def measurements(self):
        return self._loaded[0]

    @cached_property
    def prices(self):
        return {price.endpoint_id: price for price in self._loaded[1]}

    @cached_property
    def page_sources(self):
        if self._page_sources is not None:
            return list(self._page_sources)
        if self.page is None or not self.page.pk:
            return []
        return [item.source for item in self.page.page_sources.select_related("source").order_by("sort_order", "pk")]

    # --- indexes ----------------------------------------------------------------------------
    @cached_property
    def _by_source(self):
        index = defaultdict(list)
        for row in self.measurements:
            index[(row.endpoint.model_id, row.snapshot.source_id, row.metric)].append(row)
        return index

    @cached_property
    def _latest_any_source(self):
        """(model, metric) -> newest row per endpoint across sources."""
        best = {}
        for row in self.measurements:
            key = (row.endpoint_id, row.metric)
            current = best.get(key)
            if current is None or (row.snapshot.measured_at, row.snapshot_id) > (
                current.snapshot.measured_at,
                current.snapshot_id,
            ):
                best[key] = row
        index = defaultdict(list)
        for row in sorted(best.values(), key=lambda r: r.pk):
            index[(row.endpoint.model_id, row.metric)].append(row)
        return index

    def _all_rows(self):
        """(source id or None for "any source", row) over both indexes."""
        for (_model, source_id, _metric), rows in self._by_source.items():
            for row in rows:
                yield source_id, row
        for rows in self._latest_any_source.values():
            for row in rows:
                yield None, row

    @cached_property
    def _by_endpoint(self):
        """(source id or None, endpoint, metric) -> row: one lookup per table cell instead of a scan."""
        return {(source_id, row.endpoint_id, row.metric): row for source_id, row in self._all_rows()}

    @cached_property
    def _endpoints(self):
        """(model, source id or None) -> endpoints in the order the source listed them."""
        index = defaultdict(dict)
        for source_id, row in sorted(self._all_rows(), key=lambda item: item[1].pk):
            index[(row.endpoint.model_id, source_id)].setdefault(row.endpoint_id, row.endpoint)
        return {key: list(endpoints.values()) for key, endpoints in index.items()}

    @cached_property
    def footnotes(self):
        return {source.pk: number for number, source in enumerate(self.page_sources, start=1)}

    # --- queries the blocks ask -------------------------------------------------------------
    def rows(self, model, metric, source=None):
        """Measurements of one metric for a model's endpoints, in source order."""
        if model is None:
            return []
        if source is not None:
            return list(self._by_source.get((model.pk, source.pk, metric), []))
        return list(self._latest_any_source.get((model.pk, metric), []))

    def ranked(self, model, metric, source=None):
        # Asked again and again for the same model and metric (tables, picks, every statement and
        # reference on it): ranked once per render, a fresh list each time (callers may change theirs).
        key = (model.pk if model is not None else None, metric, source.pk if source is not None else None)
        memo = self.__dict__.setdefault("_ranked", {})
        if key not in memo:
            memo[key] = tuple(rank_rows(self.rows(model, metric, source), get_metric(metric)))
        return list(memo[key])

    def value(self, endpoint, metric, source=None):
        return self._by_endpoint.get((source.pk if source is not None else None, endpoint.pk, metric))

    def endpoints(self, model, source=None):
        """Endpoints measured for a model (by that source), in the order the source listed them."""
        return list(self._endpoints.get((model.pk, source.pk if source is not None else None), []))

    def price(self, endpoint):
        return self.prices.get(endpoint.pk)

    # --- freshness --------------------------------------------------------------------------
    @cached_property
    def now(self):
        from django.utils import timezone

        return self.as_of or timezone.now()

    def is_stale(self, measurement):
        from benchmarks.freshness import measurement_is_stale

        if measurement is None:
            return False
        memo = self.__dict__.setdefault("_stale", {})
        key = id(measurement)  # the page's rows are its own instances, alive for the whole render
        if key not in memo:
            memo[key] = (measurement, measurement_is_stale(measurement, self.now))
        return memo[key][1]

    def price_is_stale(self, price):
        from benchmarks.freshness import price_is_stale

        return price is not None and price_is_stale(price, self.now)

    def next_change_by_time(self):
        """When this page would read differently with no new data (a figure turning stale, a
        measurement leaving a leaderboard's window), or None. A pre-rendered copy expires then."""
        from datetime import timedelta

        from benchmarks.freshness import measurement_stale_after, price_stale_after

        moments = [measurement_stale_after(row) for row in self.measurements]
        moments += [price_stale_after(price) for price in self.prices.values()]
        moments += self.trend_changes()
        windows = _windows(self.blocks)
        if windows:
            moments += [row.snapshot.measured_at + timedelta(hours=h) for row in self.window_rows for h in windows]
        return min((moment for moment in moments if moment is not None and moment > self.now), default=None)

    def rolls_with_time(self):
        """Whether the page reads differently as time passes with no new data, beyond figures turning
        stale: a leaderboard averaging the last hours, a trend chart plotting the last days."""
        return bool(_windows(self.blocks)) or bool(self.trend_changes())

    def fresh_ranked(self, model, metric, source=None):
        """Ranked rows that may back a "fastest"/"cheapest" pick: stale figures are left out."""
        return [row for row in self.ranked(model, metric, source) if not self.is_stale(row)]

    def footnote(self, source):
        return self.footnotes.get(source.pk) if source is not None else None

    def cite(self, source):
        """The footnote number of a cited source; one the list lacks is appended after it.

        A page without a source list shows no data-derived markers (None).
        """
        number = self.footnote(source)
        if number is not None:
            return number
        self.missing_citations.add(source)
        if not self.page_sources:
            return None
        if source not in self.appended_sources:
            self.appended_sources.append(source)
        return len(self.page_sources) + self.appended_sources.index(source) + 1

    @property
    def numbered_sources(self):
        """The page's list, then the sources blocks cited that it lacks (so far in the render)."""
        return [(source, False) for source in self.page_sources] + [(source, True) for source in self.appended_sources]

    def newest_measured_at(self):
        """The newest snapshot among the data the page's blocks show."""
        models, sources = self.requirements
        times = [
            row.snapshot.measured_at
            for row in self.measurements
            if not sources or row.snapshot.source_id in sources
        ]
        return max(times) if times else None

    @cached_property
    def printed_figures(self):
        """Every Figure the blocks print, in page order (read once: sources and dates come from it)."""
        from .figures import page_figures

        return [found.figure for found in page_figures(self.blocks, self)]

    @cached_property
    def _printed_sources(self):
        shown = {}
        for figure in self.printed_figures:
            for source in figure.sources:
                shown.setdefault(source.pk, source)
        return shown

    def data_changed_at(self):
        """The newest publication of data from the sources the page shows, up to its moment (a refresh
        or a correction changes a figure when it is published; articles/versions.py). Read once."""
        if "_data_changed_at" not in self.__dict__:
            from .versions import data_changed_at

            self.__dict__["_data_changed_at"] = data_changed_at(self, self.now)
        return self.__dict__["_data_changed_at"]

    def printed_measured_span(self):
        """(oldest, newest) measurement time of the snapshots behind the figures printed, or None.
        Prices are left out: their date is when a price took effect, not when anything was measured."""
        times = [row.snapshot.measured_at for figure in self.printed_figures for row in figure.measurements]
        return (min(times), max(times)) if times else None

    def sources_shown(self):
        """Every source of a figure the blocks print (measurements, prices, data references).

        Not every price the models have: a page with no price column shows no price page, so its
        banner, creators and attributions must not come from one.
        """
        return dict(self._printed_sources)
