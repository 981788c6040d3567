"""Methodology blocks show the parameters a cited run actually recorded, in the page's language."""

from decimal import Decimal

from django import template
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from articles.formatting import format_decimal
from firstparty.models import Run

register = template.Library()


def number_format(value, decimal_pos=None, force_grouping=False):
    """Numbers as the rest of the site writes them (articles.formatting), in both languages."""
    value = Decimal(str(value))
    decimals = decimal_pos if decimal_pos is not None else (0 if value == value.to_integral() else 2)
    return format_decimal(value, decimals, trim_zeros=decimal_pos is None)


def _common(values):
    """The one value every endpoint shares, or None."""
    values = list(values)
    return values[0] if values and all(v == values[0] for v in values) else None


def run_parameter_lines(run):
    """(label, value) pairs from the frozen configuration; a setting that differs between endpoints says so."""
    endpoints = list((run.config or {}).get("endpoints", {}).values())
    if not endpoints:
        return []

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
        lines.append((_("Reasoning setting"), reasoning))
    timeout = setting("timeout_seconds")
    lines.append((_("Timeout"), varies if timeout is None else _("%(seconds)s seconds") % {
        "seconds": number_format(timeout, decimal_pos=0 if float(timeout).is_integer() else 1)}))
    concurrency = setting("concurrency")
    lines.append((_("Concurrency per endpoint"), varies if concurrency is None else number_format(concurrency)))
    lines.append((_("Token counting"), run.tokenizer or _("provider-reported usage")))
    lines.append((_("Requests per endpoint"), number_format(run.requests_per_endpoint, force_grouping=True)))
    if run.started_at and run.finished_at:
        lines.append((_("Measured"), _("%(start)s to %(end)s") % {
            "start": date_format(localtime(run.started_at), "DATETIME_FORMAT"),
            "end": date_format(localtime(run.finished_at), "DATETIME_FORMAT")}))
    return lines


@register.inclusion_tag("firstparty/run_parameters.html")
def run_parameters(sources):
    """The recorded parameters of each run whose snapshot belongs to one of the cited sources."""
    ids = [source.pk for source in sources or [] if source is not None]
    runs = list(Run.objects.filter(source_id__in=ids, snapshot__isnull=False).order_by("pk")) if ids else []
    return {"runs": [{"run": run, "lines": run_parameter_lines(run)} for run in runs]}
