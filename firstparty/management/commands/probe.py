"""Run the built-in probe against one endpoint without writing anything; print per-request timings and
the figures a run would publish (the operator's check before starting a run)."""

import json
import os
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from firstparty.http_client import MAX_CONCURRENCY
from firstparty.models import ENV_NAME
from firstparty.probe_check import check_parameters, report, run_check, summary_lines

MAX_REQUESTS = 10_000


def positive(limit):
    def parse(text):
        value = int(text)
        if not 1 <= value <= limit:
            raise ValueError
        return value

    parse.__name__ = f"a whole number from 1 to {limit}"
    return parse


class Command(BaseCommand):
    help = (
        "Send the built-in probe's request (the default probe settings: JSON-object task, temperature 0, "
        "top-p 1, streaming) to BASE_URL/chat/completions REQUESTS times and print per-request TTFT, "
        "end-to-end time, tokens and outcome, and the median/p95/p99 figures a run would publish. "
        "Writes nothing to the database. Exit status 1 when a request failed (timeout, HTTP error, malformed)."
    )

    def add_arguments(self, parser):
        parser.add_argument("base_url", help="OpenAI-compatible base URL, e.g. https://api.example.com/v1")
        parser.add_argument("--model", required=True, help="The API model id to send.")
        parser.add_argument("--key-env", required=True,
                            help="NAME of the environment variable holding the API key (not the key).")
        parser.add_argument("--requests", type=positive(MAX_REQUESTS), default=10)
        parser.add_argument("--concurrency", type=positive(MAX_CONCURRENCY), default=1,
                            help="Requests in flight at once (runs use 1).")
        parser.add_argument("--max-tokens", type=positive(1_000_000), default=256)
        parser.add_argument("--timeout", type=float, default=20.0, help="Seconds for a whole request (default 20).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead of lines.")

    def handle(self, *args, **options):
        base_url = options["base_url"]
        if urlsplit(base_url).scheme not in ("http", "https") or not urlsplit(base_url).netloc:
            raise CommandError(f"{base_url!r} is not an http(s) URL.")
        variable = options["key_env"]
        if not ENV_NAME.match(variable):
            raise CommandError("--key-env takes the NAME of an environment variable (capitals, digits, "
                               "underscores), not the key itself.")
        api_key = os.environ.get(variable)
        if not api_key:
            raise CommandError(f"The environment variable {variable} is not set here; no request was sent.")
        if not 0 < options["timeout"] <= 600:
            raise CommandError("--timeout must be more than 0 and at most 600 seconds.")
        params = check_parameters(base_url, options["model"], variable, options["max_tokens"], options["timeout"])
        results = run_check(params, api_key, options["requests"], options["concurrency"])
        result = report(params, results, options["concurrency"])
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.stdout.write("\n".join(summary_lines(result)))
        failed = result["summary"]["failure_rate_percent"]
        if failed:
            raise CommandError(f"{failed:.1f} % of the requests failed", returncode=1)
