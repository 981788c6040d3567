"""Turning read rows into unsaved model objects, with every problem reported by row and column."""

from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import F, Lookup, Q
from django.db.models.functions import Lower
from django.db.models.lookups import In
from django.utils.translation import gettext as _

from ...metrics import METRICS
from ...models import Endpoint, LanguageModel, Price, Provider, Snapshot, Source
from .. import bulk
from .formats import MEASUREMENT_DIGITS, PRICE_DIGITS, _Errors
from .reading import _parse_date_value, _parse_datetime_value, _parse_number, _text


def _merge_meta(given, from_file, keys, errors):
    """File values and importer arguments together; a disagreement is an error, not a silent choice."""
    merged = {}
    for key in keys:
        mine, theirs = given.get(key), from_file.get(key)
        if mine in (None, ""):
            value = theirs
        elif theirs in (None, "") or _same_value(key, mine, theirs):
            value = mine
        else:
            errors.add(
                _("the file says “%(file)s” but “%(given)s” was given") % {"file": theirs, "given": mine},
                None,
                key,
            )
            value = theirs  # checked further as the file's, so one disagreement is one error
        if value not in (None, ""):
            merged[key] = value
    return merged


def _same_value(key, given, in_file):
    scratch = _Errors()
    if key == "source":
        found = _resolve_sources([given, in_file])
        a = given if isinstance(given, Source) else _source_or_error(given, found, scratch, None, key)
        b = _source_or_error(in_file, found, scratch, None, key)
        return a is not None and b is not None and a.pk == b.pk
    if key == "effective_date":
        return _parse_date_value(given, scratch, None, key) == _parse_date_value(in_file, scratch, None, key)
    if key in ("measured_at", "fetched_at", "window_start", "window_end"):
        return _parse_datetime_value(given, scratch, key) == _parse_datetime_value(in_file, scratch, key)
    return _text(given) == _text(in_file)


# --- cleaning ---------------------------------------------------------------------------------


def _resolve_sources(values):
    """{given value: Source} for ids and URLs, in one query."""
    keys = {_text(getattr(v, "pk", v)) for v in values if _text(getattr(v, "pk", v))}
    ids = [int(k) for k in keys if k.isdigit()]
    urls = [k for k in keys if not k.isdigit()]
    found = {}
    if ids or urls:
        for source in Source.objects.filter(Q(pk__in=ids) | Q(url__in=urls)):
            found.setdefault(str(source.pk), []).append(source)
            found.setdefault(source.url, []).append(source)
    return found


def _source_or_error(value, found, errors, row, column):
    key = _text(getattr(value, "pk", value))
    matches = found.get(key, [])
    if not matches:
        errors.add(
            _("unknown source “%(value)s” (give the source's id or URL)") % {"value": key}, row, column
        )
        return None
    if len(matches) > 1:
        errors.add(
            _("several sources have the URL “%(value)s”; give the source's id") % {"value": key}, row, column
        )
        return None
    return matches[0]


def _build_snapshot(meta, text, checksum, errors):
    """An unsaved Snapshot from the metadata, with field errors reported by name."""
    source = None
    if meta.get("source") in (None, ""):
        errors.add(_("a source is required (its id or URL)"), None, "source")
    else:
        source = (
            meta["source"]
            if isinstance(meta["source"], Source)
            else _source_or_error(meta["source"], _resolve_sources([meta["source"]]), errors, None, "source")
        )
    values = {}
    if meta.get("measured_at") in (None, ""):
        errors.add(_("say when the data was measured (ISO 8601 date and time)"), None, "measured_at")
    for key in ("measured_at", "fetched_at", "window_start", "window_end"):
        if meta.get(key) not in (None, ""):
            values[key] = _parse_datetime_value(meta[key], errors, key)
    for key in ("concurrency", "sample_size"):
        if meta.get(key) not in (None, ""):
            raw = meta[key]
            if isinstance(raw, bool) or not _text(raw).isdigit():
                errors.add(
                    _("'%(value)s' is not a whole number of 0 or more") % {"value": _text(raw)}, None, key
                )
            else:
                values[key] = int(_text(raw))
    for key in ("workload", "effort"):
        if meta.get(key) not in (None, ""):
            values[key] = _text(meta[key])
    snapshot = Snapshot(
        source=source,
        raw_payload=text,
        checksum=checksum,
        status=Snapshot.Status.DRAFT,
        **{k: v for k, v in values.items() if v is not None},
    )
    if source is not None and snapshot.measured_at is not None:
        try:
            snapshot.full_clean(exclude=["supersedes", "status"])
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                for message in messages:
                    errors.add(message, None, None if name == "__all__" else name)
    return snapshot


class _AnyOf(Lookup):
    """`lhs` among `values`, as one array parameter on PostgreSQL: an IN list of thousands of slugs
    cost more to build (Django's parameters, then psycopg parsing their placeholders) than to run."""

    lookup_name = "any_of"  # used as an expression in filter(), never registered on a field
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        if connection.vendor != "postgresql":
            return In(self.lhs, self.rhs).as_sql(compiler, connection)
        lhs, params = self.process_lhs(compiler, connection)
        # The array typed as the column: psycopg would send small ids as smallint[], and a bigint
        # column compared with that is searched element by element instead of through a hash.
        return f"{lhs} = ANY(%s::{self.lhs.output_field.db_type(connection)}[])", (*params, list(self.rhs))


def _distinct_text(rows, column):
    """The distinct values of a column, cleaned: each distinct cell once, however many rows repeat it."""
    cells = set()
    for _number, row in rows:
        cell = row.get(column)
        cells.add(cell if type(cell) is str else _text(cell))
    return {_text(cell) for cell in cells}


class _Catalogue:
    """Providers, models and endpoints named in a file, fetched as plain values in three queries."""

    def __init__(self, rows):
        self.providers = self._by_slug(Provider, _distinct_text(rows, "provider"))
        self.models = self._by_slug(LanguageModel, _distinct_text(rows, "model"))
        self.endpoints = {}
        if self.providers and self.models:
            self.endpoints = {
                (provider_id, model_id, tier.strip().casefold()): pk
                for pk, provider_id, model_id, tier in Endpoint.objects.filter(
                    _AnyOf(F("provider_id"), [pk for pk, _slug in self.providers.values()]),
                    _AnyOf(F("model_id"), [pk for pk, _slug in self.models.values()]),
                ).order_by().values_list("pk", "provider_id", "model_id", "tier")
            }
        self._known = {}  # (provider, model, tier) cells as given -> endpoint id

    @staticmethod
    def _by_slug(model, slugs):
        """{lowercase slug: (pk, slug)}. A slug typed "Fireworks" in a spreadsheet still means "fireworks"."""
        wanted = sorted({slug.lower() for slug in slugs if slug})
        if not wanted:
            return {}
        found = model.objects.filter(_AnyOf(Lower("slug"), wanted)).order_by().values_list("pk", "slug")
        return {slug.lower(): (pk, slug) for pk, slug in found}

    def endpoint_id(self, row, number, errors):
        """The id of the endpoint a row names, or None with the reasons added to `errors`.

        A file names each endpoint on many rows (one per metric): the cells are resolved once."""
        cells = (row.get("provider"), row.get("model"), row.get("tier"))
        try:
            found = self._known.get(cells)
        except TypeError:  # a JSON list or object in a cell: never a slug, the checks below say so
            cells, found = None, None
        if found is None:
            found = self._resolve(row, number, errors)
            if found is not None and cells is not None:
                self._known[cells] = found
        return found

    def _resolve(self, row, number, errors):
        provider_slug, model_slug, tier = (
            _text(row.get("provider")),
            _text(row.get("model")),
            _text(row.get("tier")),
        )
        provider = self.providers.get(provider_slug.lower())
        model = self.models.get(model_slug.lower())
        if not provider_slug:
            errors.add(_("a provider slug is required"), number, "provider")
        elif provider is None:
            errors.add(
                _("unknown provider “%(slug)s” (use the provider's slug)") % {"slug": provider_slug},
                number,
                "provider",
            )
        if not model_slug:
            errors.add(_("a model slug is required"), number, "model")
        elif model is None:
            errors.add(
                _("unknown model “%(slug)s” (use the model's slug)") % {"slug": model_slug}, number, "model"
            )
        if provider is None or model is None:
            return None
        endpoint_id = self.endpoints.get((provider[0], model[0], tier.casefold()))
        if endpoint_id is None:
            errors.add(
                _("%(provider)s has no endpoint for %(model)s in tier “%(tier)s”")
                % {"provider": provider[1], "model": model[1], "tier": tier or _("standard")},
                number,
                "tier",
            )
        return endpoint_id


class MeasurementRow(NamedTuple):
    """A checked measurement before it has a snapshot. Not a model instance: building 100,000 of those
    (signals, related-field descriptors, defaults) took a third of a large import."""

    endpoint_id: int
    metric: str
    value: object


def _clean_measurements(rows, errors, catalogue=None, send=None):
    """The file's checked measurements. `send`, if given, gets them in chunks as they pass, while no error
    has been found: the caller writes them inside a transaction that any later error rolls back. It may
    hold the connection (COPY): `catalogue`, made beforehand, is then the only lookup."""
    if catalogue is None:
        catalogue = _Catalogue(rows)
    measurements, seen = [], {}
    chunk, sent = bulk.COPY_CHUNK, 0
    for number, row in rows:
        endpoint_id = catalogue.endpoint_id(row, number, errors)
        cell = row.get("metric")
        metric = METRICS.get(cell) if type(cell) is str else None  # the usual exact key: one lookup
        if metric is None:
            metric = _metric_or_error(cell, number, errors)
        value = _parse_number(row.get("value"), errors, number, "value", MEASUREMENT_DIGITS)
        if metric is not None and value is not None:
            problem = metric.validate(value)
            if problem:
                errors.add(problem, number, "value")
                value = None
        if endpoint_id is not None and metric is not None:
            key = (endpoint_id, metric.key)
            if key in seen:
                errors.add(
                    _("duplicate of row %(first)s (same endpoint and metric)") % {"first": seen[key]},
                    number,
                    "metric",
                )
                continue
            seen[key] = number
            if value is not None:
                measurements.append(MeasurementRow(endpoint_id, metric.key, value))
                if send is not None and len(measurements) - sent == chunk and not errors:
                    send(measurements[sent:])
                    sent = len(measurements)
    if send is not None and not errors and sent < len(measurements):
        send(measurements[sent:])
    return measurements


def _metric_or_error(cell, number, errors):
    metric_key = _text(cell)
    metric = METRICS.get(metric_key)
    if metric is None:
        if metric_key:
            errors.add(
                _("unknown metric “%(metric)s” (known metrics: %(known)s)")
                % {"metric": metric_key, "known": ", ".join(METRICS)},
                number,
                "metric",
            )
        else:
            errors.add(_("a metric is required"), number, "metric")
    return metric


def _clean_prices(rows, snapshot, default_effective, errors, stored=None):
    catalogue = _Catalogue(rows)
    row_sources = _resolve_sources([row["source"] for _, row in rows if _text(row.get("source"))])
    prices, seen = [], {}
    for number, row in rows:
        endpoint_id = catalogue.endpoint_id(row, number, errors)
        source = snapshot.source if snapshot.source_id else None
        if _text(row.get("source")):
            source = _source_or_error(row["source"], row_sources, errors, number, "source")
        local = _Errors()
        numbers = {
            name: _parse_number(
                row.get(name),
                local,
                number,
                name,
                PRICE_DIGITS,
                required=name in ("input_per_m", "output_per_m"),
            )
            for name in ("input_per_m", "output_per_m", "promo_input_per_m", "promo_output_per_m")
        }
        effective = default_effective
        if _text(row.get("effective_date")):
            effective = _parse_date_value(row["effective_date"], local, number, "effective_date")
        elif default_effective is None:
            local.add(_("an effective date is required"), number, "effective_date")
        promo_until = None
        if _text(row.get("promo_until")):
            promo_until = _parse_date_value(row["promo_until"], local, number, "promo_until")
        price = Price(
            endpoint_id=endpoint_id,
            source=source,
            currency=_text(row.get("currency")).upper(),
            effective_date=effective,
            promo_until=promo_until,
            **numbers,
        )
        if not local:
            # The model's own rules (currency, no negative price, a promotion needs an end date).
            try:
                price.clean()
            except ValidationError as exc:
                for name, messages in exc.message_dict.items():
                    for message in messages:
                        local.add(message, number, name)
        errors.extend(local)
        if endpoint_id is None or source is None or effective is None:
            continue
        key = (endpoint_id, effective, source.pk)
        if key in seen:
            errors.add(
                _("duplicate of row %(first)s (same endpoint, source and effective date)")
                % {"first": seen[key]},
                number,
                "effective_date",
            )
            continue
        seen[key] = number
        if not local:
            prices.append((number, price))
    if seen:
        _check_existing_prices(prices, errors, stored)
    return [price for _, price in prices]


def _check_existing_prices(numbered_prices, errors, stored=None):
    """A price already stored for the same endpoint, source and day would collide with the file's.

    `stored`: the prices to compare with (default all; a correction leaves out those it replaces).
    """
    if not numbered_prices:
        return
    by_key = {(p.endpoint_id, p.effective_date, p.source_id): n for n, p in numbered_prices}
    clash = Q()
    for endpoint_id, effective, source_id in by_key:
        clash |= Q(endpoint_id=endpoint_id, effective_date=effective, source_id=source_id)
    stored = Price.objects.all() if stored is None else stored
    for price in stored.filter(clash).only("pk", "endpoint_id", "effective_date", "source_id"):
        number = by_key[(price.endpoint_id, price.effective_date, price.source_id)]
        errors.add(
            _("a price for this endpoint, source and effective date is already stored (price #%(pk)s)")
            % {"pk": price.pk},
            number,
            "effective_date",
        )


# --- writing ----------------------------------------------------------------------------------


def _already_imported(checksum):
    return Snapshot.objects.filter(checksum=checksum).defer("raw_payload").order_by("pk").first()


def _lock_and_recheck(checksum):
    """Serialise imports of the same bytes so two simultaneous uploads make one snapshot."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [checksum])
    return _already_imported(checksum)
