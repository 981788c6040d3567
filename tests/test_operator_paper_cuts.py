"""What an operator meets first: creating the first users in production, a quiet `migrate -v 0`, docs
that list what the code has, and valid machine-readable dates on the pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from benchmarks.metric_docs import documented_table, markdown_table
from benchmarks.metrics import METRICS
from editorial.roles import EDITORS, TRANSLATORS

STRONG = "correct-horse-battery-9"


def test_the_docs_list_every_metric_of_the_registry():
    table = documented_table()
    assert table == markdown_table(), "run `python manage.py metric_table --write`"
    assert {f"`{key}`" for key in METRICS} <= set(re.findall(r"`[a-z0-9_]+`", table))


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "group"), [("editor", EDITORS), ("translator", TRANSLATORS)])
def test_add_user_creates_a_person_in_a_role_with_the_password_from_the_environment(monkeypatch, capsys, role,
                                                                                     group):
    monkeypatch.setenv("NEW_PASSWORD", STRONG)
    call_command("add_user", "ana", "--email", "ana@example.com", "--role", role, "--password-env", "NEW_PASSWORD")
    user = get_user_model().objects.get(username="ana")
    assert user.check_password(STRONG) and user.is_staff and not user.is_superuser
    assert list(user.groups.values_list("name", flat=True)) == [group]
    assert "ana: " + role + " (created)" in capsys.readouterr().out


@pytest.mark.django_db
def test_add_user_adds_a_role_to_an_existing_user_and_keeps_the_password(monkeypatch):
    monkeypatch.setenv("NEW_PASSWORD", STRONG)
    call_command("add_user", "ana", "--role", "translator", "--password-env", "NEW_PASSWORD")
    call_command("add_user", "ana", "--role", "admin")
    user = get_user_model().objects.get(username="ana")
    assert user.is_superuser and user.check_password(STRONG)


@pytest.mark.django_db
def test_add_user_refuses_a_weak_or_missing_password(monkeypatch):
    monkeypatch.setenv("WEAK", "123")
    with pytest.raises(CommandError, match="The password is refused"):
        call_command("add_user", "ana", "--role", "editor", "--password-env", "WEAK")
    with pytest.raises(CommandError, match="is empty or not set"):
        call_command("add_user", "ana", "--role", "editor", "--password-env", "UNSET_VARIABLE_X")
    assert not get_user_model().objects.filter(username="ana").exists()


@pytest.mark.django_db
def test_migrate_at_verbosity_zero_prints_nothing(capfd):
    call_command("migrate", verbosity=0, interactive=False)
    out, _err = capfd.readouterr()
    assert out == ""


@pytest.mark.django_db
def test_machine_readable_dates_have_no_microseconds(client, demo_site):
    html = client.get("/en/fastest-llm-api/").text
    values = re.findall(r'<time[^>]*\bdatetime="([^"]+)"', html)
    assert values
    # HTML's valid global date and time: at most three digits of a fraction of a second.
    for value in values:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:?\d\d)", value), value


def test_every_tokens_per_second_cell_says_its_unit():
    from decimal import Decimal

    from benchmarks.formatting import format_metric

    cells = {key: format_metric(METRICS[key], Decimal("240.5")) for key in ("tps_p95", "tps_median", "tps_mean")}
    assert cells == dict.fromkeys(cells, "240.5 tok/s")


@pytest.mark.django_db
def test_numeric_column_headings_align_with_their_right_aligned_figures(client, demo_site):
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "assets" / "css" / "site.css").read_text()
    assert re.search(r"\.data-table th\.num[^{]*\{[^}]*text-align: right", css)
    html = client.get("/en/fastest-llm-api/").text
    tables = re.findall(r'<table class="data-table provider-table">.*?</thead>', html, re.S)
    assert tables
    for thead in tables:
        headings = re.findall(r'<th scope="col"([^>]*)>', thead)
        assert len(headings) > 2 and all('class="num"' in heading for heading in headings[1:]), thead
    leaderboard = (Path(__file__).resolve().parent.parent / "templates/articles/blocks/leaderboard.html").read_text()
    assert '<th scope="col" class="num">{{ result.value_heading }}</th>' in leaderboard
