"""Each lesson's incident app gets that lesson's defects; its fixed app comes out clean. The lesson -> rules table the
lessons' cells declare, and its links."""
from __future__ import annotations

import pytest
from audit_helpers import pairs

from celerylab.audit.registry import all_rules
from celerylab.course import Course
from celerylab.rule_lessons import lesson_of, lesson_url, shown, taught_in

INCIDENTS = {
    "l01_incident": {("CL301", "l01.welcome_any_error"), ("CL302", "l01.never_gives_up"),
                     ("CL304", "l01.fractional_backoff"), ("CL305", "l01.no_delay_set"),
                     ("CL306", "l01.kwargs_and_backoff"), ("CL308", "l01.notes_manual_retry:43")},
    "l02_incident": {("CL205", "l02.export:12"), ("CL401", "l02.export"), ("CL402", "l02.remind"),
                     ("CL403", "worker_prefetch_multiplier"), ("CL405", "task_reject_on_worker_lost")},
    "audit_l03.incident": {("CL102", "task_max_retries"), ("CL102", "task_default_retry_delay"),
                     ("CL104", "backup-db-hourly"), ("CL113", "l03.describe_user(user)"),
                           ("CL114", "audit_l03.shop.scheduled")},
    "audit_l03.notes_fix": {("CL103", "emails.welcome"), ("CL114", "audit_l03.shop.scheduled")},
    "l04_incident": {("CL501", "result_expires"), ("CL505", "audit_apps/l04_incident.py:15")},
    "l05_incident": {("CL601", "timezone"), ("CL603", "daily-report")},
    "l05_dst_incident": {("CL602", "night-batch")},
}
FIXED = ["l01_fixed", "l02_fixed", "audit_l03.fixed", "l04_fixed", "l05_fixed"]


@pytest.mark.parametrize("module", sorted(INCIDENTS))
def test_the_incident_finds_the_lessons_defects(audit_app, module):
    report = audit_app(module)
    assert pairs(report.findings) == INCIDENTS[module]
    lesson = "l03" if module.startswith("audit_l03") else module.split("_")[0]
    folder = next(name for name in Course().lesson_names() if name.startswith(lesson))
    assert {f.rule.id for f in report.findings} <= set(taught_in(folder))   # each one shown live by that lesson


@pytest.mark.parametrize("module", FIXED)
def test_the_fixed_app_is_clean(audit_app, module):
    report = audit_app(module)
    assert (report.findings, report.unknown, report.errors) == ([], [], [])


def test_every_rule_is_taught_by_one_lesson():
    taught = [item.rule for item in shown() if item.first]
    assert len(taught) == len(set(taught))
    assert set(taught) == set(all_rules())
    assert all(lesson_of(rule) == rule_obj.lesson for rule, rule_obj in all_rules().items())
    assert lesson_of("CL406") == "l07_resilience" and "CL406" in taught_in("l02_workers")  # shown again earlier


def test_links_point_at_the_section_in_each_language():
    assert lesson_url("CL301", "en") == \
        "en/lessons/01_retries/#autoretry_forexception-retrying-what-will-never-work"
    assert lesson_url("CL301", "pt") == "lessons/01_retries/#autoretry_forexception-retentar-o-que-nunca-vai-dar-certo"
    assert lesson_url("CL110", "pt") == "lessons/03_silent_defects/"
    assert lesson_url("CL900", "pt") == ""


def test_every_declared_section_exists_in_both_languages():
    for item in shown():
        if not item.first:
            continue
        for lang in ("pt", "en"):
            url = lesson_url(item.rule, lang)
            assert url.startswith(("lessons/", "en/lessons/")), (item, lang)
            assert url.endswith("/") or "#" in url and not url.endswith("#"), (item, lang, url)
            if item.cell != "title":
                assert "#" in url, (item, lang)


def test_lesson_03s_own_app_shows_its_incident():
    """The course's own lesson 03 app, as its notebook runs it: the audit finds what the lesson reproduces live.
    (In a process of its own, as `celerylab audit` runs: this test process keeps its lesson modules untouched.)"""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import celerylab

    source = str(Path(celerylab.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    argv = [sys.executable, "-m", "celerylab.cli", "audit", "-A", "celerylab.lessons.l03_silent_defects.tasks",
            "--format", "json"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    found = {(f["rule"], f["subject"]) for f in json.loads(done.stdout)["findings"]}
    assert {("CL102", "task_max_retries"), ("CL102", "task_default_retry_delay"), ("CL104", "backup-db-hourly"),
            ("CL114", "celerylab.lessons.l03_silent_defects.shop.scheduled")} <= found
