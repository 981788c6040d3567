"""The command-line options that tell the import what a runner's file does not say (shared by
import_requests and check_requests)."""

from datetime import datetime

from django.core.management.base import CommandError

from .models import Run, Series
from .runner_formats import FORMATS, ReadOptions
from .runner_formats.common import TOKEN_COUNT_HELP


def add_format_arguments(parser):
    parser.add_argument("--format", choices=list(FORMATS),
                        help="The file's format; detected from its name and content when not given.")
    parser.add_argument("--endpoint", metavar="PROVIDER/MODEL[/TIER]",
                        help="Our endpoint (slugs) the runner measured; needed for every runner's format.")
    parser.add_argument("--started-at", metavar="ISO8601",
                        help="Start of the benchmark, with a time zone, for files without request times "
                             "(LLMPerf, vLLM): every record gets this time.")
    parser.add_argument("--token-count", metavar="METHOD", default="", help=TOKEN_COUNT_HELP)
    parser.add_argument("--benchmark", type=int, metavar="N",
                        help="Which benchmark of a GuideLLM report (or experiment of GenAI-Perf) holding several, from 0.")


def parse_endpoint(text):
    parts = [part.strip() for part in (text or "").split("/")]
    if not 2 <= len(parts) <= 3 or not all(parts[:2]):
        raise ValueError(f"--endpoint takes provider/model or provider/model/tier (slugs), not {text!r}")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else ""


def parse_started_at(text):
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--started-at: {text!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise ValueError("--started-at: give a time zone (e.g. 2026-09-03T09:00:00Z)")
    return moment


def read_options(options):
    try:
        return ReadOptions(
            endpoint=parse_endpoint(options["endpoint"]) if options.get("endpoint") else None,
            started_at=parse_started_at(options["started_at"]) if options.get("started_at") else None,
            token_count=options.get("token_count") or "", benchmark=options.get("benchmark"))
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _by_id_or_name(model, key):
    found = model.objects.filter(pk=int(key)).first() if key.isdigit() else None
    return found or model.objects.filter(name=key).first()


def find_target(options):
    model, key = (Run, options["run"]) if options.get("run") else (Series, options["series"])
    target = _by_id_or_name(model, key)
    if target is None:
        raise CommandError(f"No {model._meta.model_name} with id or name {key!r}.")
    return target
