"""An external runner's files feed a continuous series, appended day after day: each import adds records to
the series, the periods are aggregated over the rolling window, and a 24-hour Leaderboard shows them."""

import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from benchmarks.models import Measurement
from firstparty.aggregation import aggregate_series_period
from firstparty.models import ImportedFile, RequestRecord
from tests.firstparty_support import make_endpoint
from tests.test_blocks import render

pytestmark = pytest.mark.django_db


def day_file(tmp_path, name, start, speeds):
    """A runner's JSONL of one day: ten requests per endpoint, an hour long, at the given tokens/s."""
    lines = []
    for n in range(10):
        for provider, speed in speeds.items():
            ttft = 0.3 + n / 100
            lines.append(json.dumps({
                "provider": provider, "model": "glm-5-3-flash", "outcome": "success",
                "started_at": (start + timedelta(minutes=6 * n)).isoformat(), "ttft_s": ttft,
                "e2e_s": ttft + 100 / speed, "output_tokens": 101, "token_count": "usage"}))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_files_appended_day_after_day_feed_a_24_hour_leaderboard(tmp_path, series, capsys):
    fast, slow = make_endpoint("fast-host"), make_endpoint("slow-host")
    now = timezone.now()
    days = [(now - timedelta(hours=50), {"fast-host": 200.0, "slow-host": 20.0}),  # older than the window
            (now - timedelta(hours=23), {"fast-host": 100.0, "slow-host": 40.0}),
            (now - timedelta(hours=2), {"fast-host": 80.0, "slow-host": 60.0})]
    snapshots = []
    for day, (start, speeds) in enumerate(days):
        path = day_file(tmp_path, f"day-{day}.jsonl", start, speeds)
        call_command("import_requests", str(path), "--series", series.name)
        assert f"into series {series.pk}" in capsys.readouterr().out
        # The beat aggregates the period after the file's hour over the rolling 24 hours before it.
        snapshots.append(aggregate_series_period(series, start + timedelta(hours=1, minutes=30)))
    assert RequestRecord.objects.filter(series=series, run=None).count() == 60
    assert ImportedFile.objects.filter(series=series).count() == 3
    assert all(s.status == "published" for s in snapshots)

    def in_window(endpoint):
        values = Measurement.objects.filter(snapshot__in=snapshots[1:], endpoint=endpoint,
                                            metric="tps_median").values_list("value", flat=True)
        return sum(values) / len(values)

    # Yesterday's window: its file only (100 tokens/s); today's also holds yesterday's records, 23 hours back:
    # the median of ten at 100 and ten at 80 is 90. The day of 50 hours ago is outside both.
    assert float(in_window(fast)) == pytest.approx((100 + 90) / 2, abs=1e-3)
    raw = {"metric": "tps_median", "models": [{"model": fast.model.pk, "source": series.source.pk}],
           "window_hours": 24, "limit": None, "name_style": "short"}
    _html, text, _data = render("leaderboard", raw)
    assert f"1GLM-5-3-FLASHFast-Host{in_window(fast):.1f}" in text
    assert f"2GLM-5-3-FLASHSlow-Host{in_window(slow):.1f}" in text
    assert "averageofthelast24hours" in text

    # The same day's file twice is refused; nothing is added.
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_requests", str(tmp_path / "day-2.jsonl"), "--series", str(series.pk))
    assert "already imported into test series (same checksum)" in capsys.readouterr().err
    assert RequestRecord.objects.filter(series=series).count() == 60


def test_a_series_takes_no_aggregate_flag(tmp_path, series):
    make_endpoint("fast-host")
    path = day_file(tmp_path, "day.jsonl", timezone.now() - timedelta(hours=1), {"fast-host": 50.0})
    with pytest.raises(CommandError, match="--aggregate is for runs"):
        call_command("import_requests", str(path), "--series", series.name, "--aggregate")
