"""The worker "on another machine, later": the host name and the calendar its task's code reads, and what of the
grader job's temporary folders a new worker finds where bwrap cannot give it its own."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from celerylab.stack import elsewhere, elsewhere_clock

PROBE = """
import calendar, datetime, json, os, pickle, platform, socket, sys, time
from celerylab.stack import elsewhere_clock
elsewhere_clock.rename(sys.argv[1])
elsewhere_clock.shift_clock(float(sys.argv[2]))
import kombu.asynchronous.timer as timer
from datetime import datetime as imported_after
from celery import Celery
app = Celery(set_as_current=False)
real = time.time() - float(sys.argv[2]) * 86400
print(json.dumps({"names": [socket.gethostname(), os.uname().nodename, platform.node()],
                  "day": int(time.time() // 86400), "today": datetime.date.today().toordinal(),
                  "ns_day": time.time_ns() // 86400 // 10**9, "timer_lag": time.time() - timer._time(),
                  "now_lag": imported_after.now().timestamp() - real,
                  "utcnow_lag": imported_after.utcnow().replace(tzinfo=datetime.timezone.utc).timestamp() - real,
                  "datetime_today_lag": datetime.datetime.today().timestamp() - real,
                  "celery_lag": app.now().timestamp() - real,
                  "c_lags": {name: lag - float(sys.argv[2]) * 86400 for name, lag in {
                      "gmtime": calendar.timegm(time.gmtime()) - real,
                      "localtime": time.mktime(time.localtime()) - real,
                      "ctime": time.mktime(time.strptime(time.ctime())) - real,
                      "asctime": time.mktime(time.strptime(time.asctime())) - real,
                      "strftime": time.mktime(time.strptime(time.strftime("%Y-%m-%d %H:%M:%S"),
                                                            "%Y-%m-%d %H:%M:%S")) - real,
                      "clock_gettime": time.clock_gettime(time.CLOCK_REALTIME) - real,
                      "clock_gettime_ns": time.clock_gettime_ns(time.CLOCK_REALTIME) / 1e9 - real}.items()},
                  "given_a_time": [time.gmtime(0).tm_year, time.localtime(86400 * 400).tm_year,
                                   time.strftime("%Y", time.gmtime(0))],
                  "monotonic_lag": time.clock_gettime(time.CLOCK_MONOTONIC) - time.monotonic(),
                  "log_year": __import__("logging").Formatter("%(asctime)s").format(
                      __import__("logging").makeLogRecord({"created": 0.0, "msecs": 0.0}))[:4],
                  "real_is_datetime": isinstance(__import__("_datetime").datetime(2020, 1, 1), imported_after),
                  "pickled": pickle.dumps(imported_after.now()).hex()}))
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


def test_the_tasks_datetime_now_utcnow_and_today_move_by_days_hours_and_minutes():
    days = 400 + (7 * 3600 + 23 * 60 + 31) / 86400
    seen = probe("far-away", days)
    for lag in ("now_lag", "utcnow_lag", "datetime_today_lag"):
        assert abs(seen[lag] - days * elsewhere_clock.DAY) < 60, lag


def test_the_time_modules_calendar_functions_given_no_time_move_too_and_given_one_convert_it_as_before():
    """A router that asks `time.gmtime().tm_hour` (C's clock, not time.time) reads the moved hour."""
    seen = probe("far-away", 400 + 5 / 24)
    assert {name: abs(lag) < 60 for name, lag in seen["c_lags"].items()} == dict.fromkeys(seen["c_lags"], True)
    assert seen["given_a_time"] == [1970, 1971, "1970"]
    assert seen["log_year"] in ("1969", "1970")  # a class holding time.localtime (logging's converter) still works
    assert abs(seen["monotonic_lag"]) < 60


def test_celerys_own_datetime_now_keeps_the_real_clock_and_real_datetimes_stay_datetimes():
    seen = probe("far-away", 400.3)
    assert abs(seen["celery_lag"]) < 60
    assert seen["real_is_datetime"] is True


def test_a_datetime_pickled_on_the_shifted_worker_loads_as_a_plain_datetime_elsewhere():
    import datetime
    import pickle

    loaded = pickle.loads(bytes.fromhex(probe("far-away", 400.3)["pickled"]))
    assert type(loaded) is datetime.datetime and loaded.year >= datetime.datetime.now().year + 1


def test_celerys_timer_keeps_the_real_clock_so_a_countdown_still_waits():
    seen = probe("far-away", 400)
    assert abs(seen["timer_lag"] - 400 * elsewhere_clock.DAY) < 60


def test_the_launcher_runs_only_a_celery_command():
    seen = subprocess.run([sys.executable, "-m", "celerylab.stack.elsewhere_clock", "--hostname", "x", "--",
                           "sh", "-c", "true"], capture_output=True, text=True, timeout=60)
    assert seen.returncode != 0 and "not a celery command" in seen.stderr


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    folders = [tmp_path / name for name in ("tmp", "var-tmp", "shm", "home")]
    for folder in folders:
        folder.mkdir()
    monkeypatch.setattr(elsewhere, "PRIVATE_TMP", tuple(map(str, folders[:3])))
    monkeypatch.setenv("HOME", str(folders[3]))
    return folders


class CodeStack:
    """What private_entries and forget_local_files read of a stack: the folders its code is imported from."""

    def __init__(self, *folders):
        self.spec = type("Spec", (), {"pythonpath": folders})()


def test_what_appeared_since_the_stack_started_is_removed_but_the_kept_paths(private_tmp, tmp_path):
    tmp, var_tmp, shm, home = private_tmp
    code = tmp_path / "answers"
    code.mkdir()
    (code / "ex_charge.py").write_text("")
    (tmp / "postgres-home").mkdir()
    (home / "ipython").mkdir()
    stack = CodeStack(str(code))
    before = elsewhere.private_entries(stack)
    (tmp / "celerylab-charged").mkdir()
    (tmp / "celerylab-charged" / "7-INV").write_text("task")
    (var_tmp / "sent.json").write_text("{}")
    (shm / "marker").write_text("1")
    (home / "charged.json").write_text("{}")
    (code / "charged.sqlite").write_text("")
    (tmp / "stack-folder").mkdir()
    removed = elsewhere.forget_local_files(before, [str(tmp / "stack-folder"), str(code)], stack)
    assert sorted(removed) == sorted(map(str, [tmp / "celerylab-charged", var_tmp / "sent.json", shm / "marker",
                                               home / "charged.json", code / "charged.sqlite"]))
    assert sorted(p.name for p in tmp.iterdir()) == ["postgres-home", "stack-folder"]
    assert not list(var_tmp.iterdir()) and not list(shm.iterdir())
    assert [p.name for p in home.iterdir()] == ["ipython"] and [p.name for p in code.iterdir()] == ["ex_charge.py"]


def test_a_deploy_brings_the_modules_and_packages_of_a_code_folder_and_nothing_a_task_wrote(tmp_path):
    folder = tmp_path / "answers"
    (folder / "helpers" / "__pycache__").mkdir(parents=True)
    for name in ("ex_charge.py", "helpers/__init__.py", "helpers/__pycache__/x.pyc", "charged.json", "ex.ipynb"):
        (folder / name).write_text("")
    (folder / "state").mkdir()
    copy = Path(elsewhere.deployed_copy(str(folder), tmp_path / "deployed"))
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*")) == ["ex_charge.py", "helpers",
                                                                         "helpers/__init__.py"]


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
    monkeypatch.setenv("HOME", str(tmp_path / "job-home"))
    (tmp_path / "job-home").mkdir()
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


COUNTDOWN_APP = """
import os
from celerylab.stack.appconfig import create_app

app = create_app("elsewhere_countdown")


@app.task(name="t.later", bind=True, max_retries=1)
def later(self):
    if not self.request.retries:
        raise self.retry(countdown=1)
    return "retried"
"""


@pytest.mark.live
def test_a_retry_countdown_on_the_shifted_worker_waits_its_seconds(tmp_path):
    """Celery computes the retry's ETA with its own (real) clock and kombu's timer waits for it with the real one:
    on a worker whose datetime.now is 400 days and some hours ahead, a 1 s countdown still waits about 1 s."""
    from celerylab.stack import Stack, StackSpec, WorkerSpec

    (tmp_path / "countdown_app.py").write_text(COUNTDOWN_APP)
    with Stack.start(StackSpec(app="countdown_app", pythonpath=(str(tmp_path),)), workers=[], timeline=False) as stack:
        elsewhere.add_worker(stack, WorkerSpec(), days=400 + 7.4 / 24)
        started = time.monotonic()
        assert stack.app.send_task("t.later").get(timeout=20) == "retried"
        assert 0.9 < time.monotonic() - started < 10
