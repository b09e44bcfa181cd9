"""`celerylab doctor` lists each lesson's needs, what this machine has of them and how to get the rest; `--lang en` works."""
from __future__ import annotations

import pytest

from celerylab import machine_needs
from celerylab.cli import build_parser
from celerylab.commands import doctor_needs
from celerylab.course import Course
from celerylab.i18n import set_lang


@pytest.fixture(autouse=True)
def fresh_answers():
    machine_needs.available.cache_clear()
    yield
    machine_needs.available.cache_clear()
    set_lang("pt")


def test_lessons_06_and_08_declare_their_services():
    needs = doctor_needs.lesson_needs(Course.at())
    assert needs["l08_rabbitmq"] == ("rabbitmq-server",)
    assert needs["l06_architecture"] == ("prometheus", "alertmanager")
    assert needs["l02_workers"] == ("rabbitmq",)
    assert needs["l03_silent_defects"] == ()


def test_a_missing_need_says_how_to_get_it_on_each_platform_in_both_languages(monkeypatch):
    monkeypatch.setitem(machine_needs.CHECKS, "rabbitmq-server", lambda: False)
    monkeypatch.setitem(machine_needs.CHECKS, "prometheus", lambda: True)
    set_lang("en")
    lines = doctor_needs.lines()
    assert lines[0] == "What each lesson uses from this machine (besides the broker):"
    missing = next(line for line in lines if line.startswith("  l08_rabbitmq: rabbitmq-server"))
    assert "missing" in missing
    for command in ("apt install rabbitmq-server", "dnf install rabbitmq-server", "brew install rabbitmq"):
        assert command in missing
    assert "  l06_architecture: prometheus: present" in lines
    assert "  l03_silent_defects: nothing beyond Python" in lines
    set_lang("pt")
    assert any(line.startswith("  l08_rabbitmq: rabbitmq-server: falta") for line in doctor_needs.lines())


def test_doctor_takes_lang_after_the_subcommand():
    args = build_parser().parse_args(["doctor", "--lang", "en"])
    assert args.lang == "en" and args.command == "doctor"
