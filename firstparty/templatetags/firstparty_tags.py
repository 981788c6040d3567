"""Methodology blocks show the parameters a cited run actually recorded, in the page's language."""

from datetime import datetime
from decimal import Decimal

from django import template
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from benchmarks.formatting import format_decimal
from firstparty.models import PROBE_TIMING, Run

register = template.Library()


def number_format(value, decimal_pos=None, force_grouping=False):
    """Numbers as the rest of the site writes them (benchmarks.formatting), in both languages."""
    value = Decimal(str(value))
    decimals = decimal_pos if decimal_pos is not None else (0 if value == value.to_integral() else 2)
    return format_decimal(value, decimals, trim_zeros=decimal_pos is None)


def _common(values):
    """The one value every endpoint shares, or None."""
    values = list(values)
    return values[0] if values and all(v == values[0] for v in values) else None


def _span_line(start, end):
    return (_("Measured"), _("%(start)s to %(end)s") % {
        "start": date_format(localtime(start), "DATETIME_FORMAT"),
        "end": date_format(localtime(end), "DATETIME_FORMAT")})


def _token_counting(method):
    if method == "usage":
        return _("provider-reported usage")
    if method == "chunks":
        return _("streamed chunks (the provider reported no usage)")
    return method.removeprefix("tokenizer:")


def imported_run_lines(config):
    """What a run fed by runners' files recorded, frozen when it was aggregated (Run.freeze_imported)."""
    counts = sorted((config.get("records_per_endpoint") or {}).values())
    if not counts:
        return []
    files = config.get("files") or []
    lines = [(_("Records"), ngettext(
        "per-request records of an external runner, imported from %(count)s file",
        "per-request records of an external runner, imported from %(count)s files", len(files)) % {
        "count": number_format(len(files))})]
    per_endpoint = number_format(counts[0], force_grouping=True) if counts[0] == counts[-1] else \
        _("%(low)s to %(high)s") % {"low": number_format(counts[0], force_grouping=True),
                                    "high": number_format(counts[-1], force_grouping=True)}
    lines.append((_("Requests per endpoint"), per_endpoint))
    methods = config.get("token_count") or []
    if methods:
        lines.append((_("Token counting"), ", ".join(_token_counting(m) for m in methods)))
    if config.get("first_at") and config.get("last_at"):
        lines.append(_span_line(datetime.fromisoformat(config["first_at"]), datetime.fromisoformat(config["last_at"])))
    return lines


# The values APIs take for the reasoning setting, as readers of each language say them; any other value
# is the provider's own word and is printed as recorded.
REASONING_VALUES = {
    "none": pgettext_lazy("reasoning setting value", "none"),
    "minimal": pgettext_lazy("reasoning setting value", "minimal"),
    "low": pgettext_lazy("reasoning setting value", "low"),
    "medium": pgettext_lazy("reasoning setting value", "medium"),
    "high": pgettext_lazy("reasoning setting value", "high"),
}


def reasoning_value(value):
    return str(REASONING_VALUES.get(str(value).strip().lower(), value))


def run_parameter_lines(run):
    """(label, value) pairs from the frozen configuration only (never the run's editable fields); a setting
    that differs between endpoints says so. Nothing for a run with no frozen configuration."""
    config = run.config or {}
    endpoints = list(config.get("endpoints", {}).values())
    if not endpoints:
        return imported_run_lines(config)

    def setting(key):
        return _common(e.get(key) for e in endpoints)

    varies = _("differs between endpoints")
    models = sorted({e.get("model", "") for e in endpoints if e.get("model")})
    lines = [(_("Model identifiers"), ", ".join(models))]
    json_mode = setting("json_mode")
    lines.append((_("Request"), _("one-turn chat completion, streaming, JSON-object mode") if json_mode
                  else _("one-turn chat completion, streaming")))
    for key, label in (("temperature", _("Temperature")), ("top_p", _("Top-p")), ("max_tokens", _("Output token ceiling"))):
        value = setting(key)
        lines.append((label, varies if value is None else number_format(value)))
    reasoning = setting("reasoning_effort")
    if reasoning:
        lines.append((_("Reasoning setting"), reasoning_value(reasoning)))
    timeout = setting("timeout_seconds")
    lines.append((_("Timeout"), varies if timeout is None else _("%(seconds)s seconds") % {
        "seconds": number_format(timeout, decimal_pos=0 if float(timeout).is_integer() else 1)}))
    concurrency = setting("concurrency")
    lines.append((_("Concurrency per endpoint"), varies if concurrency is None else number_format(concurrency)))
    if config.get("timing") == PROBE_TIMING:
        lines.append((_("Timing"), _(
            "from the request leaving the client over an open connection to the first content token (TTFT) and "
            "to the end of the stream; setting up a new connection is not included")))
    lines.append((_("Token counting"), config.get("tokenizer") or _("provider-reported usage")))
    if config.get("requests_per_endpoint") is not None:
        lines.append((_("Requests per endpoint"), number_format(config["requests_per_endpoint"], force_grouping=True)))
    if run.started_at and run.finished_at:
        lines.append(_span_line(run.started_at, run.finished_at))
    return lines


@register.inclusion_tag("firstparty/run_parameters.html")
def run_parameters(sources):
    """The recorded parameters of each run whose snapshot belongs to one of the cited sources; a run with
    nothing recorded gets no section."""
    ids = [source.pk for source in sources or [] if source is not None]
    runs = list(Run.objects.filter(source_id__in=ids, snapshot__isnull=False).select_related("source")
                .order_by("pk")) if ids else []
    items = [{"run": run, "lines": run_parameter_lines(run)} for run in runs]
    return {"runs": [item for item in items if item["lines"]]}
