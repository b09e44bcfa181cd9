"""The worker "on another machine, later": the host name and the calendar its task's code reads, and what of the
grader job's temporary folders a new worker finds where bwrap cannot give it its own."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

from celerylab.stack import elsewhere, elsewhere_clock

PROBE = """
import datetime, json, os, platform, socket, sys, time
from celerylab.stack import elsewhere_clock
elsewhere_clock.rename(sys.argv[1])
elsewhere_clock.shift_clock(float(sys.argv[2]))
import kombu.asynchronous.timer as timer
print(json.dumps({"names": [socket.gethostname(), os.uname().nodename, platform.node()],
                  "day": int(time.time() // 86400), "today": datetime.date.today().toordinal(),
                  "ns_day": time.time_ns() // 86400 // 10**9, "timer_lag": time.time() - timer._time()}))
"""


def probe(hostname: str, days: float) -> dict:
    seen = subprocess.run([sys.executable, "-c", PROBE, hostname, str(days)], capture_output=True, text=True,
                          timeout=60)
    assert seen.returncode == 0, seen.stderr
    return json.loads(seen.stdout)


def test_the_task_reads_another_host_name_and_a_calendar_months_ahead():
    now = time.time()
    seen = probe("far-away", 400)
    assert seen["names"] == ["far-away"] * 3 != [socket.gethostname()] * 3
    assert seen["day"] - int(now // 86400) in (400, 401) and seen["ns_day"] == seen["day"]
    import datetime
    assert seen["today"] - datetime.date.today().toordinal() in (399, 400, 401)


def test_celerys_timer_keeps_the_real_clock_so_a_countdown_still_waits():
    seen = probe("far-away", 400)
    assert abs(seen["timer_lag"] - 400 * elsewhere_clock.DAY) < 60


def test_the_launcher_runs_only_a_celery_command():
    seen = subprocess.run([sys.executable, "-m", "celerylab.stack.elsewhere_clock", "--hostname", "x", "--",
                           "sh", "-c", "true"], capture_output=True, text=True, timeout=60)
    assert seen.returncode != 0 and "not a celery command" in seen.stderr


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    folders = [tmp_path / name for name in ("tmp", "var-tmp", "shm")]
    for folder in folders:
        folder.mkdir()
    monkeypatch.setattr(elsewhere, "PRIVATE_TMP", tuple(map(str, folders)))
    return folders


def test_what_appeared_since_the_stack_started_is_removed_but_the_kept_paths(private_tmp):
    tmp, var_tmp, shm = private_tmp
    (tmp / "postgres-home").mkdir()
    before = elsewhere.private_entries()
    (tmp / "celerylab-charged").mkdir()
    (tmp / "celerylab-charged" / "7-INV").write_text("task")
    (var_tmp / "sent.json").write_text("{}")
    (shm / "marker").write_text("1")
    (tmp / "stack-folder").mkdir()
    removed = elsewhere.forget_local_files(before, [str(tmp / "stack-folder")])
    assert sorted(removed) == sorted(map(str, [tmp / "celerylab-charged", var_tmp / "sent.json", shm / "marker"]))
    assert sorted(p.name for p in tmp.iterdir()) == ["postgres-home", "stack-folder"]
    assert not list(var_tmp.iterdir()) and not list(shm.iterdir())


def test_only_the_grader_job_sandbox_counts_as_one(monkeypatch):
    monkeypatch.setenv("USER", elsewhere.JOB_NAME)
    monkeypatch.setattr(socket, "gethostname", lambda: elsewhere.JOB_NAME)
    assert elsewhere.in_job_sandbox()
    monkeypatch.setattr(socket, "gethostname", lambda: "a-laptop")
    assert not elsewhere.in_job_sandbox()


MARKER_ANSWER = '''
import os

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge")
def charge(order_id: int, invoice_no: str, amount: str) -> str:
    marker = os.path.join(os.environ["L01_TEST_TMP"], f"charged-{order_id}-{invoice_no}")
    if os.path.exists(marker):
        return "skipped"
    execute(connect(), "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
            (order_id, invoice_no, amount))
    open(marker, "w").close()
    return "charged"
'''


@pytest.mark.live
def test_in_the_job_sandbox_without_bwrap_the_new_worker_finds_no_marker_the_old_one_left(tmp_path, monkeypatch):
    """Where a nested bwrap cannot run (the grader's unprivileged job sandbox), what the old worker wrote in the
    job's own temporary folders since the stack started is gone before the deploy's worker starts."""
    from celerylab.checks.check_run import run_check
    from celerylab.course import Course

    private = tmp_path / "job-tmp"
    private.mkdir()
    monkeypatch.setenv("L01_TEST_TMP", str(private))
    monkeypatch.setattr(elsewhere, "PRIVATE_TMP", (str(private),))
    monkeypatch.setattr(elsewhere, "available", lambda: False)
    monkeypatch.setattr(elsewhere, "in_job_sandbox", lambda: True)
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "ex_charge.py").write_text(MARKER_ANSWER)
    exercise = next(e for e in Course.at().all_exercises() if e.id == "l01.charge_once")
    verdict = run_check(exercise, answers, stop_at_first_failure=True)
    assert verdict.error is None, verdict.error
    failed = [criterion.key for criterion in verdict.criteria if not criterion.passed]
    assert failed == ["l01.check.charge_rows_reconciliation"], failed
