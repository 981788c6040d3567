"""Snapshot and price imports: the documented example files import; any bad input writes nothing."""

import hashlib
import json
from decimal import Decimal

import pytest

from benchmarks.ingest.importers import ImportRejected, import_prices, import_snapshot
from benchmarks.metrics import get_metric
from benchmarks.models import Measurement, Price, Snapshot
from benchmarks.querysets import rank_rows
from tests.factories import (
    PriceFactory,
)

from .support import (
    AA_DEEPSEEK_URL,
    EXAMPLES,
    GOOD_ROWS,
    PRICE_HEADER,
    csv_snapshot,
    rejected_messages,
)

# --- good files ---------------------------------------------------------------------------------


def test_example_csv_snapshot_imports_as_draft(catalogue):
    raw = (EXAMPLES / "snapshot.csv").read_bytes()
    result = import_snapshot(
        raw,
        "csv",
        source=catalogue["sources"]["aa_glm"].pk,
        measured_at="2026-11-28T14:00:00Z",
        workload="10,000-token input",
    )
    snapshot = result.snapshot
    assert result.created and result.count == 18
    assert snapshot.status == Snapshot.Status.DRAFT
    assert snapshot.source == catalogue["sources"]["aa_glm"]
    assert snapshot.workload == "10,000-token input"
    assert snapshot.checksum == hashlib.sha256(raw).hexdigest()
    assert snapshot.raw_payload == raw.decode()
    fast = catalogue["endpoints"][("baseten", "glm-5-3", "Fast")]
    assert snapshot.measurements.get(endpoint=fast, metric="output_speed_median").value == Decimal("283.4")
    assert snapshot.measurements.get(
        endpoint=catalogue["endpoints"][("deepinfra", "glm-5-3", "")], metric="accuracy_index"
    ).value == Decimal("98.6")
    # A draft is not data yet.
    assert not Measurement.objects.latest().exists()
    assert "18 measurements" in result.summary and "draft" in result.summary


def test_example_json_snapshot_imports_and_publishes(catalogue):
    raw = (EXAMPLES / "snapshot.json").read_bytes()
    result = import_snapshot(raw, filename="snapshot.json", publish=True)
    snapshot = result.snapshot
    assert result.created and result.count == 14
    assert snapshot.status == Snapshot.Status.PUBLISHED and snapshot.published_at
    assert snapshot.source == catalogue["sources"]["aa_deepseek"]
    assert snapshot.effort == "Max" and snapshot.measured_at.isoformat() == "2026-11-28T14:00:00+00:00"
    model = catalogue["models"]["deepseek-v4-1-flash-1017"]
    leader = rank_rows(list(Measurement.objects.latest(models=[model], metrics=["output_speed_median"])), get_metric("output_speed_median"))[0]
    assert (leader.endpoint.label, leader.value) == ("Baseten (Fast)", Decimal("837.1"))


def test_example_price_files_import_published_with_their_snapshot(catalogue):
    sources = catalogue["sources"]
    csv_result = import_prices(
        (EXAMPLES / "prices.csv").read_bytes(), filename="prices.csv", source=sources["price_list"].url
    )
    json_result = import_prices((EXAMPLES / "prices.json").read_bytes(), filename="prices.json")
    assert (csv_result.count, json_result.count) == (6, 4)
    for result in (csv_result, json_result):
        assert result.snapshot.status == Snapshot.Status.PUBLISHED
        assert result.snapshot.source == sources["price_list"]
        assert set(result.snapshot.prices.values_list("pk", flat=True)) == set(
            Price.objects.filter(snapshot=result.snapshot).values_list("pk", flat=True)
        )
    endpoints = catalogue["endpoints"]
    fast = Price.objects.get(endpoint=endpoints[("baseten", "glm-5-3", "Fast")])
    assert (fast.input_per_m, fast.output_per_m, fast.currency, fast.source) == (
        Decimal("2.10"),
        Decimal("6.60"),
        "USD",
        sources["baseten"],
    )
    # A row without its own source cites the file's source.
    assert Price.objects.get(endpoint=endpoints[("deepinfra", "glm-5-3", "")]).source == sources["price_list"]
    assert Price.objects.get(endpoint=endpoints[("z-ai", "glm-5-3", "")]).source == sources["zai"]
    promo = Price.objects.get(endpoint=endpoints[("deepinfra", "deepseek-v4-1-flash-1017", "")])
    assert (promo.promo_input_per_m, promo.promo_output_per_m, str(promo.promo_until)) == (
        Decimal("0.098"),
        Decimal("0.294"),
        "2026-12-31",
    )
    current = Price.objects.current(on_date=promo.effective_date, models=[catalogue["models"]["glm-5-3"]])
    assert len(current) == 6


def test_draft_price_import_is_not_used_until_published(catalogue):
    result = import_prices(
        (EXAMPLES / "prices.csv").read_bytes(),
        "csv",
        source=catalogue["sources"]["price_list"].pk,
        publish=False,
    )
    assert result.snapshot.status == Snapshot.Status.DRAFT
    assert list(Price.objects.current(on_date=Price.objects.first().effective_date)) == []
    result.snapshot.publish()
    assert len(Price.objects.current(on_date=Price.objects.first().effective_date)) == 6


def test_same_file_twice_is_a_no_op(catalogue):
    raw = (EXAMPLES / "snapshot.json").read_bytes()
    first = import_snapshot(raw, "json")
    counts = (Snapshot.objects.count(), Measurement.objects.count())
    second = import_snapshot(raw, "json", publish=True)
    assert not second.created and second.snapshot == first.snapshot
    assert (Snapshot.objects.count(), Measurement.objects.count()) == counts
    assert "already imported" in second.summary
    assert Snapshot.objects.get().status == Snapshot.Status.DRAFT

    prices = (EXAMPLES / "prices.json").read_bytes()
    assert import_prices(prices, "json").created
    price_counts = (Snapshot.objects.count(), Price.objects.count())
    again = import_prices(prices, "json")
    assert not again.created and (Snapshot.objects.count(), Price.objects.count()) == price_counts


# --- bad input: each kind names the row and column and writes nothing --------------------------


def test_unknown_provider_and_model(catalogue):
    raw = csv_snapshot(
        *GOOD_ROWS, "groq,glm-5-3,,output_speed_median,500", "together,glm-9,,output_speed_median,10"
    )
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == [
        "row 5, column provider: unknown provider “groq” (use the provider's slug)",
        "row 6, column model: unknown model “glm-9” (use the model's slug)",
    ]


def test_unknown_tier_names_the_endpoint(catalogue):
    raw = csv_snapshot("together,glm-5-3,Turbo,output_speed_median,500")
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == ["row 2, column tier: together has no endpoint for glm-5-3 in tier “Turbo”"]


def test_duplicate_row(catalogue):
    raw = csv_snapshot(*GOOD_ROWS, "Together,glm-5-3,,ttfc_median,0.70")
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == ["row 5, column metric: duplicate of row 4 (same endpoint and metric)"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("fast", "row 3, column value: 'fast' is not a number"),
        ("1,5", "row 3, column value: '1,5' is not a number (use a dot as the decimal separator)"),
        ("", "row 3, column value: a value is required"),
        ("NaN", "row 3, column value: 'NaN' is not a finite number"),
    ],
)
def test_non_numeric_value(catalogue, value, expected):
    raw = csv_snapshot(GOOD_ROWS[0], f'together,glm-5-3,,output_speed_median,"{value}"')
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == [expected]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (
            "together,glm-5-3,,output_speed_median,-3",
            "row 3, column value: Output speed cannot be negative (got -3).",
        ),
        (
            "together,glm-5-3,,ttft_p95,-0.2",
            "row 3, column value: Time to first token p95 cannot be negative (got -0.2).",
        ),
        (
            "together,glm-5-3,,accuracy_index,100.5",
            "row 3, column value: Endpoint Accuracy Index is a percentage and must be between 0 and 100 (got 100.5).",
        ),
    ],
)
def test_out_of_range_value(catalogue, row, expected):
    raw = csv_snapshot(GOOD_ROWS[0], row)
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == [expected]


def test_unknown_metric(catalogue):
    raw = csv_snapshot(GOOD_ROWS[0], "together,glm-5-3,,speed,10")
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert len(messages) == 1 and messages[0].startswith(
        "row 3, column metric: unknown metric “speed” (known metrics: "
    )


def test_missing_column(catalogue):
    raw = csv_snapshot("together,glm-5-3,,output_speed_median", header="provider,model,tier,metric")
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == [
        "row 1, column value: the column is missing (required columns: provider, model, metric, value)"
    ]


def test_wrong_encoding_names_the_cell(catalogue):
    raw = csv_snapshot(*GOOD_ROWS) + "together,glm-5-3,Rápido,e2e_median,1\n".encode("latin-1")
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == [
        "row 5, column tier: the file is not UTF-8 text (byte 0xE1 cannot be read); save it as UTF-8 and import it again"
    ]


def test_wrong_encoding_in_json_names_the_line(catalogue):
    raw = '{"measurements": [\n{"provider": "Müller"}\n]}'.encode("cp1252")
    messages = rejected_messages(import_snapshot, raw, fmt="json")
    assert messages == [
        "row 2: the file is not UTF-8 text (byte 0xFC cannot be read); save it as UTF-8 and import it again"
    ]


def test_one_bad_row_among_many_writes_nothing(catalogue):
    rows = (EXAMPLES / "snapshot.csv").read_text().splitlines()
    rows[10] = rows[10].rsplit(",", 1)[0] + ",about 2"
    raw = ("\n".join(rows) + "\n").encode()
    messages = rejected_messages(
        import_snapshot, raw, source=catalogue["sources"]["aa_glm"].pk, measured_at="2026-11-28"
    )
    assert messages == ["row 11, column value: 'about 2' is not a number"]


def test_snapshot_needs_a_known_source_and_a_date(catalogue):
    messages = rejected_messages(
        import_snapshot, csv_snapshot(*GOOD_ROWS), source="https://nowhere.example.com/"
    )
    assert messages == [
        "field source: unknown source “https://nowhere.example.com/” (give the source's id or URL)",
        "field measured_at: say when the data was measured (ISO 8601 date and time)",
    ]


def test_json_errors_name_entry_and_key(catalogue):
    data = json.loads((EXAMPLES / "snapshot.json").read_text())
    data["measurements"][2]["value"] = "fast"
    del data["measurements"][4]["metric"]
    data["measurements"][6]["tier"] = "Turbo"
    data["measured_at"] = "last tuesday"
    messages = rejected_messages(import_snapshot, json.dumps(data).encode(), fmt="json")
    assert messages == [
        "row 5, column metric: the key is missing",
        "field measured_at: 'last tuesday' is not a date and time (use ISO 8601, e.g. 2026-11-28T14:00:00Z)",
        "row 3, column value: 'fast' is not a number",
        "row 7, column tier: fireworks has no endpoint for deepseek-v4-1-flash-1017 in tier “Turbo”",
    ]


def test_invalid_json_names_the_line(catalogue):
    messages = rejected_messages(import_snapshot, b'{"measurements": [\n{"provider": "x",}\n]}', fmt="json")
    assert len(messages) == 1 and messages[0].startswith("row 2: the file is not valid JSON")


def test_json_source_disagreeing_with_the_chosen_one_is_an_error(catalogue):
    raw = (EXAMPLES / "snapshot.json").read_bytes()
    messages = rejected_messages(import_snapshot, raw, fmt="json", source=catalogue["sources"]["aa_glm"])
    assert messages == [
        f"field source: the file says “{AA_DEEPSEEK_URL}” but “{catalogue['sources']['aa_glm']}” was given"
    ]
    # The same source given by id agrees with the file's URL.
    assert import_snapshot(raw, fmt="json", source=catalogue["sources"]["aa_deepseek"].pk).created




@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (
            "together,glm-5-3,,1.40,4.40,,2026-11-28",
            "row 3, column currency: A price needs a currency (e.g. USD).",
        ),
        (
            "together,glm-5-3,,1.40,4.40,US$,2026-11-28",
            "row 3, column currency: Use a three-letter ISO 4217 currency code such as USD.",
        ),
        (
            "together,glm-5-3,,-1.40,4.40,USD,2026-11-28",
            "row 3, column input_per_m: A price cannot be negative.",
        ),
        (
            "together,glm-5-3,,1.40,cheap,USD,2026-11-28",
            "row 3, column output_per_m: 'cheap' is not a number",
        ),
        (
            "together,glm-5-3,,1.40,4.40,USD,28/11/2026",
            "row 3, column effective_date: '28/11/2026' is not a date (use YYYY-MM-DD)",
        ),
        (
            "groq,glm-5-3,,1.40,4.40,USD,2026-11-28",
            "row 3, column provider: unknown provider “groq” (use the provider's slug)",
        ),
        (
            "baseten,glm-5-3,Fast,2.20,6.60,USD,2026-11-28",
            "row 3, column effective_date: duplicate of row 2 (same endpoint, source and effective date)",
        ),
    ],
)
def test_bad_price_rows(catalogue, row, expected):
    raw = "\n".join([PRICE_HEADER, "baseten,glm-5-3,Fast,2.10,6.60,USD,2026-11-28", row]).encode()
    messages = rejected_messages(import_prices, raw, fmt="csv", source=catalogue["sources"]["price_list"].pk)
    assert messages == [expected]


def test_promotion_needs_an_end_date(catalogue):
    raw = (
        b"provider,model,input_per_m,output_per_m,currency,effective_date,promo_input_per_m,promo_output_per_m\n"
        b"deepinfra,glm-5-3,0.20,0.60,USD,2026-11-28,0.098,0.294\n"
    )
    messages = rejected_messages(import_prices, raw, fmt="csv", source=catalogue["sources"]["price_list"].pk)
    assert messages == ["row 2, column promo_until: Say until when the promotional price runs."]


def test_price_missing_column_and_stored_duplicate(catalogue):
    messages = rejected_messages(
        import_prices,
        b"provider,model,input_per_m,currency,effective_date\n",
        fmt="csv",
        source=catalogue["sources"]["price_list"].pk,
    )
    assert messages == [
        "row 1, column output_per_m: the column is missing "
        "(required columns: provider, model, input_per_m, output_per_m, currency, effective_date)"
    ]
    stored = PriceFactory(
        endpoint=catalogue["endpoints"][("zai", "glm-5-3", "")],
        source=catalogue["sources"]["price_list"],
        effective_date="2026-11-28",
    )
    raw = f"{PRICE_HEADER}\nzai,glm-5-3,,1.40,4.40,USD,2026-11-28\n".encode()
    with pytest.raises(ImportRejected) as info:
        import_prices(raw, "csv", source=catalogue["sources"]["price_list"].pk)
    assert [str(e) for e in info.value.errors] == [
        f"row 2, column effective_date: a price for this endpoint, source and effective date is already stored (price #{stored.pk})"
    ]
    assert Price.objects.count() == 1 and Snapshot.objects.count() == 0


def test_default_effective_date_makes_the_column_optional(catalogue):
    raw = b"provider,model,input_per_m,output_per_m,currency\nzai,glm-5-3,1.40,4.40,usd\n"
    result = import_prices(
        raw, "csv", source=catalogue["sources"]["price_list"].pk, effective_date="2026-11-01"
    )
    price = result.snapshot.prices.get()
    assert (str(price.effective_date), price.currency) == ("2026-11-01", "USD")


def test_empty_file(catalogue):
    assert rejected_messages(import_snapshot, b"  \n", fmt="csv") == ["The file is empty."]
