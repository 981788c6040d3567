"""What stands behind a trend line's point, and where it changes from the line's previous point.

A line joins values measured the same way only while the method holds: a longer input, another effort
setting, more concurrent requests or another source move the figure by themselves. The chart marks each
point where that happens, says what changed in its tooltip, its table row and its CSV row, and the
reader decides whether the slope there is the provider's doing.

The method of a point is its snapshot's workload, effort and concurrency and, for a snapshot that
aggregates one of our runs (firstparty), the request settings the run froze for that endpoint. A probe
series' rolling windows carry the series' name and window length in their workload, so a change of
window shows as a change of workload.
"""

from decimal import Decimal

from django.utils.translation import gettext as _

from benchmarks.formatting import format_decimal

# Request settings a run freezes per endpoint (firstparty.models.ProbeConfig.request_parameters) that
# change what is measured; the key's address and timeout do not.
RUN_SETTINGS = ("max_tokens", "temperature", "top_p", "reasoning_effort", "json_mode")


def setting_labels():
    return {
        "workload": _("workload"), "effort": _("effort / configuration"), "concurrency": _("concurrency"),
        "max_tokens": _("max tokens"), "temperature": _("temperature"), "top_p": _("top-p"),
        "reasoning_effort": _("reasoning setting"), "json_mode": _("JSON-object mode"),
        "tokenizer": _("token counting"),
    }


def _run_of(snapshot):
    try:
        return snapshot.run  # the reverse one-to-one, read with the row (articles/charts/data.py)
    except AttributeError:  # RelatedObjectDoesNotExist: not a run's snapshot
        return None


def method_of(row):
    """{setting: value} of what stands behind one plotted measurement; empty values are kept (a
    setting that goes from stated to unstated is a change too)."""
    snapshot = row.snapshot
    method = {"workload": snapshot.workload or None, "effort": snapshot.effort or None,
              "concurrency": snapshot.concurrency}
    run = _run_of(snapshot)
    config = getattr(run, "config", None) or {}
    settings = (config.get("endpoints") or {}).get(str(row.endpoint_id))
    if settings:
        method.update({key: settings.get(key) for key in RUN_SETTINGS})
        method["tokenizer"] = config.get("tokenizer") or None
    return method


def printed(value):
    if value is None or value == "":
        return _("not stated")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int | float | Decimal):
        return format_decimal(Decimal(str(value)), 2, trim_zeros=True)
    return str(value)


def changes(previous, row):
    """[{kind, text}] of what differs between a line's previous point and this one (none for its first)."""
    if previous is None:
        return []
    found = []
    if previous.snapshot.source_id != row.snapshot.source_id:
        found.append({"kind": "source", "text": _("Source changed: %(before)s → %(after)s") % {
            "before": previous.snapshot.source, "after": row.snapshot.source}})
    before, after = method_of(previous), method_of(row)
    labels = setting_labels()
    differing = [
        _("%(setting)s %(before)s → %(after)s") % {
            "setting": labels[key], "before": printed(before[key]), "after": printed(after[key])}
        # Run settings are compared only between two runs: a snapshot from elsewhere states none.
        for key in labels if key in before and key in after and before[key] != after[key]
    ]
    if differing:
        found.append({"kind": "method", "text": _("Method changed: %(changes)s") % {"changes": "; ".join(differing)}})
    return found
