"""The demo's probe series: a week of per-request records from four GLM-5.3-Flash hosts, aggregated
into rolling 24-hour windows every 12 hours by the same code a live series runs (firstparty/aggregation.py),
so the demo scorecard has a history to draw a trend chart from (issue 25).

The records are synthetic and seeded, like the run's (firstparty/demo.py), and labelled as demo data by
their source. Each host starts from its figures in the run and moves with a daily load cycle (slower in
the afternoon, UTC); one host's first token gets faster half-way through the week, the kind of change a
trend is there to show. Every window then holds what its records give: the chart's points are medians of
real records, computed in PostgreSQL, not numbers typed here.
"""

import math
import random
from datetime import timedelta

from django.utils import timezone

from .models import RequestRecord, Series

NAME = "GLM-5.3-Flash demo probe"
WINDOW_HOURS = 24
PERIOD_MINUTES = 720
DAYS = 7
REQUESTS_PER_HOUR = 4
# provider slug -> (median TTFT s, median tokens/s) at the start of the week; from the run's rows.
# Hosts no other demo figure singles out, so a test naming a run host finds one published value.
HOSTS = ("modal", "telnyx", "z-ai", "nebius")
IMPROVES = "z-ai"  # its first token gets 30 % faster from the middle of the week on
FAILURE_EVERY = 97  # about 1 % of requests fail, as HTTP 503


def host_records(endpoint, series, ttft_median, tps_median, start, hours, seed):
    rng = random.Random(seed)
    records = []
    for hour in range(hours):
        at_hour = start + timedelta(hours=hour)
        # Daily cycle: up to 15 % slower at 15:00 UTC than at 03:00.
        load = 1 + 0.15 * (1 - math.cos(2 * math.pi * (at_hour.hour - 3) / 24)) / 2
        faster = 0.7 if endpoint.provider.slug == IMPROVES and hour >= hours // 2 else 1.0
        for n in range(REQUESTS_PER_HOUR):
            at = at_hour + timedelta(minutes=15 * n, seconds=rng.randrange(60))
            index = hour * REQUESTS_PER_HOUR + n
            record = RequestRecord(endpoint=endpoint, series=series, started_at=at, region="demo",
                                   token_count="tokenizer:o200k_base")
            if index % FAILURE_EVERY == FAILURE_EVERY - 1:
                record.outcome, record.http_status, record.error = "http_error", 503, "HTTP 503"
            else:
                ttft = ttft_median * load * faster * rng.lognormvariate(0, 0.18)
                speed = tps_median / load * rng.lognormvariate(0, 0.1)
                tokens = rng.randint(110, 230)
                record.outcome = "success" if rng.random() < 0.95 else "wrong_answer"
                record.ttft_s = round(ttft, 4)
                record.e2e_s = round(ttft + (tokens - 1) / speed, 4)
                record.output_tokens = tokens
            records.append(record.derive())
    return records


def load_demo_series(source, endpoints_by_provider, figures_by_provider, now=None):
    """The series, its records and its published windows; a second call finds the series and does nothing.

    figures_by_provider: provider slug -> (median TTFT s, median tokens/s). Returns (series, created).
    """
    from .aggregation import aggregate_series_period, last_period_end

    series = Series.objects.filter(name=NAME).first()
    if series is not None:
        return series, False
    until = last_period_end(now or timezone.now(), PERIOD_MINUTES)
    start = until - timedelta(days=DAYS + 1)  # the first window needs a day of records before it
    series = Series.objects.create(name=NAME, source=source, window_hours=WINDOW_HOURS,
                                   period_minutes=PERIOD_MINUTES, region="demo")
    records = []
    for slug in HOSTS:
        ttft, speed = figures_by_provider[slug]
        records += host_records(endpoints_by_provider[slug], series, ttft, speed, start, (DAYS + 1) * 24,
                                seed=f"demo-series/{slug}")
    RequestRecord.objects.bulk_create(records, batch_size=2000)
    end = start + timedelta(hours=WINDOW_HOURS)
    while end <= until:
        aggregate_series_period(series, end)
        end += timedelta(minutes=PERIOD_MINUTES)
    return series, True
