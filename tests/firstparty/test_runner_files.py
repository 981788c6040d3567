"""Runners' files as they are: real exports saved in public repositories (tests/runner_files, origins in
docs/first-party-runs.md) import through the real command, and the figures match each tool's own summary."""

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from firstparty.models import ImportedFile, RequestRecord, Run
from tests.firstparty_support import first_party_source, make_endpoint

pytestmark = pytest.mark.django_db
FILES = Path(__file__).resolve().parent.parent / "runner_files"
AIPERF = FILES / "aiperf" / "profile_export.jsonl"
LLMPERF = FILES / "llmperf" / "01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json"
GUIDELLM = FILES / "guidellm" / "benchmarks_stripped.json"


@pytest.fixture
def run(db):
    make_endpoint("acme")
    return Run.objects.create(name="runner files", source=first_party_source("runner files"))


def check(path, capsys, *args):
    capsys.readouterr()
    call_command("check_requests", str(path), "--json", *args)
    return json.loads(capsys.readouterr().out)


def measurement(run, metric):
    return float(run.snapshot.measurements.get(metric=metric).value)


def test_aiperf_export_imports_and_matches_aiperfs_own_summary(run, capsys):
    aiperf = json.loads((FILES / "aiperf" / "profile_export_aiperf.json").read_text())["records"]
    result = check(AIPERF, capsys, "--endpoint", "acme/glm-5-3-flash")
    assert result["format"] == "aiperf" and result["errors"] == []
    assert result["records"] == aiperf["request_count"]["avg"] == 89
    assert result["outcomes"] == {"success": 89}
    assert result["skipped"] == [{"reason": "cancelled by aiperf on purpose (--request-cancellation-rate)",
                                  "count": aiperf["error_request_count"]["avg"]}]
    summary = result["summary"]
    for ours, theirs in (("median", "p50"), ("p95", "p95"), ("p99", "p99")):
        assert summary["ttft_s"][ours] == pytest.approx(aiperf["ttft"][theirs] / 1000, rel=1e-9)
        assert summary["e2e_s"][ours] == pytest.approx(aiperf["request_latency"][theirs] / 1000, rel=1e-9)
    per_user = aiperf["output_token_throughput_per_user"]
    assert summary["tokens_per_second"]["median"] == pytest.approx(per_user["p50"], rel=1e-9)
    assert summary["tokens_per_second"]["p5"] == pytest.approx(per_user["p5"], rel=1e-9)

    call_command("import_requests", str(AIPERF), "--run", str(run.pk), "--endpoint", "acme/glm-5-3-flash",
                 "--aggregate")
    run.refresh_from_db()
    kept = ImportedFile.objects.get(run=run)
    assert kept.format == "aiperf" and kept.rows == 89 and sum(kept.skipped.values()) == 11
    assert measurement(run, "ttft_median") == pytest.approx(aiperf["ttft"]["p50"] / 1000, abs=1e-6)
    assert measurement(run, "e2e_p95") == pytest.approx(aiperf["request_latency"]["p95"] / 1000, abs=1e-6)
    assert measurement(run, "tps_median") == pytest.approx(per_user["p50"], abs=1e-6)
    first = RequestRecord.objects.filter(run=run).order_by("started_at").first()
    assert first.started_at.isoformat().startswith("2025-10-03T20:13:39")  # aiperf's timestamp_ns, UTC


def test_llmperf_responses_import_with_the_given_start_and_match_llmperfs_summary(run, capsys):
    llmperf = json.loads(LLMPERF.with_name("01-ai-Yi-1-5-34B-Chat_550_150_summary.json").read_text())
    args = ("--endpoint", "acme/glm-5-3-flash", "--started-at", "2024-06-12T15:41:32Z")
    result = check(LLMPERF, capsys, *args)
    assert result["format"] == "llmperf" and result["errors"] == []
    assert result["records"] == llmperf["results_num_requests_started"] == 128
    assert result["outcomes"] == {"malformed": llmperf["results_number_errors"],
                                  "success": llmperf["results_num_completed_requests"]}
    summary = result["summary"]
    assert summary["failure_rate_percent"] == pytest.approx(100 * llmperf["results_error_rate"])
    assert summary["ttft_s"]["median"] == pytest.approx(llmperf["results_ttft_s_quantiles_p50"], rel=1e-9)
    assert summary["ttft_s"]["p95"] == pytest.approx(llmperf["results_ttft_s_quantiles_p95"], rel=1e-9)
    assert summary["e2e_s"]["p99"] == pytest.approx(llmperf["results_end_to_end_latency_s_quantiles_p99"], rel=1e-9)

    call_command("import_requests", str(LLMPERF), "--run", "runner files", *args)
    records = RequestRecord.objects.filter(run=run)
    assert records.count() == 128 and {r.started_at.isoformat() for r in records} == {"2024-06-12T15:41:32+00:00"}
    assert records.filter(outcome="malformed", error="LLMPerf error code -1").count() == 44
    assert set(records.exclude(token_count="").values_list("token_count", flat=True)) == {
        "tokenizer:hf-internal-testing/llama-tokenizer"}


def test_llmperf_needs_a_start_time_and_every_runner_file_an_endpoint(run, capsys):
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_requests", str(LLMPERF), "--run", str(run.pk), "--endpoint", "acme/glm-5-3-flash")
    assert "has no request times: give the benchmark's start" in capsys.readouterr().err
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_requests", str(AIPERF), "--run", str(run.pk))
    assert "names no endpoint of ours: give the endpoint" in capsys.readouterr().err
    assert not RequestRecord.objects.exists() and not ImportedFile.objects.exists()


def test_guidellm_report_imports_what_it_holds_and_counts_what_it_left_out(run, capsys):
    report = json.loads(GUIDELLM.read_text())["benchmarks"][0]
    request = report["requests"]["successful"][0]
    result = check(GUIDELLM, capsys, "--endpoint", "acme/glm-5-3-flash")
    assert result["format"] == "guidellm" and result["records"] == 1 and result["errors"] == []
    assert {item["reason"]: item["count"] for item in result["skipped"]} == {
        "successful request not in the report (GuideLLM kept a sample)": report["request_totals"]["successful"] - 1,
        "incomplete: cut off when GuideLLM's benchmark time ran out": report["request_totals"]["incomplete"],
    }
    # GuideLLM's summary covers 46 requests the file no longer holds; the one it holds matches its own figures.
    summary = result["summary"]
    assert summary["ttft_s"]["median"] == pytest.approx(request["time_to_first_token_ms"] / 1000)
    assert summary["e2e_s"]["median"] == pytest.approx(request["request_latency"])
    # GuideLLM's inter-token latency runs to the last token, our end-to-end to the end of the response (0.1 ms
    # later here): the same speed within that gap.
    ttft, e2e, tokens = request["time_to_first_token_ms"] / 1000, request["request_latency"], request["output_tokens"]
    assert summary["tokens_per_second"]["median"] == pytest.approx((tokens - 1) / (e2e - ttft), rel=1e-12)
    assert summary["tokens_per_second"]["median"] == pytest.approx(1000 / request["inter_token_latency_ms"], rel=2e-4)

    call_command("import_requests", str(GUIDELLM), "--run", str(run.pk), "--endpoint", "acme/glm-5-3-flash")
    record = RequestRecord.objects.get(run=run)
    assert record.started_at.timestamp() == pytest.approx(request["start_time"], abs=1e-6)
    assert record.output_tokens == request["output_tokens"]


def test_a_file_of_no_known_format_is_refused_with_the_formats(run, tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"something": []}))
    with pytest.raises(CommandError, match="is not a runner file this import knows"):
        call_command("check_requests", str(path), "--json")
