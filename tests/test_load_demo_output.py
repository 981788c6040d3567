"""`make run` runs load_demo on every start: by default it prints a short summary and no INFO log lines
(Wagtail's "Page created"/"Published", the pre-render tasks Celery runs in the process); -v 2 shows
everything."""

import logging

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_load_demo_prints_a_short_summary_and_no_info_logs(capfd, caplog):
    caplog.set_level(logging.INFO)
    call_command("load_demo")
    out, err = capfd.readouterr()
    assert out.splitlines() == [
        "Demo site loaded: 2 articles created (fastest-llm-api, glm-5-3-flash-providers), "
        "4 benchmark snapshots, 1 first-party run.",
        "Details: manage.py load_demo -v 2.",
    ]
    assert err == ""
    assert [record.getMessage() for record in caplog.records if record.levelno < logging.WARNING] == []

    call_command("load_demo")
    assert capfd.readouterr().out.splitlines() == ["Demo site already loaded (2 articles): nothing to do."]


def test_load_demo_at_verbosity_two_shows_the_report_and_the_logs(capfd, caplog):
    caplog.set_level(logging.INFO)
    call_command("load_demo", verbosity=2)
    out, _err = capfd.readouterr()
    assert "article created: fastest-llm-api" in out.splitlines()
    assert any(line.startswith("snapshot Artificial Analysis") for line in out.splitlines())
    assert any("Page created" in record.getMessage() for record in caplog.records)


def test_warnings_still_show_while_it_is_quiet(caplog):
    from articles.management.commands.load_demo import quiet_info_logs

    with quiet_info_logs(True):
        logging.getLogger("wagtail").info("Page created: hidden")
        logging.getLogger("articles").warning("shown")
    assert [record.getMessage() for record in caplog.records] == ["shown"]
    logging.getLogger("wagtail").info("after")
    assert logging.root.manager.disable == logging.NOTSET
