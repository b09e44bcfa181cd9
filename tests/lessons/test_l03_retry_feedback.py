"""Lesson 03's retry-defaults check on a fake stack: a retry the worker ran at once is read as run (its wait named,
at once), and a task that retried where it should have failed is reported by its state."""
from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from celerylab import i18n
from celerylab.checks.check_run import CheckRun
from celerylab.checks.render import criterion_line
from celerylab.lessons.l03_silent_defects import checks, retry_clock

STARTED = datetime(2026, 12, 8, 12, 0, tzinfo=timezone.utc)
PUBLISHED = STARTED + timedelta(seconds=0.002)


class Backend:
    """The result backend's records, as retry_clock writes them."""

    def __init__(self, records: dict[str, str]):
        self.records = records

    def get_key_for_task(self, task_id, key=""):
        return f"{task_id}{key}"

    def get(self, key):
        return self.records.get(key)


class Control:
    """inspect().scheduled() answers what the worker holds; revoke() is remembered."""

    def __init__(self, held: dict):
        self.held, self.revoked = held, []

    def inspect(self, **_):
        return SimpleNamespace(scheduled=lambda: self.held)

    def revoke(self, task_id, destination=None):
        self.revoked.append(task_id)


def fake_stack(state: str, records: dict[str, str], held: dict | None = None):
    backend = Backend({})
    backend.records = {backend.get_key_for_task("t1", key): value for key, value in records.items()}
    app = SimpleNamespace(backend=backend, control=Control(held or {}),
                          send_task=lambda *args, **options: SimpleNamespace(id="t1", state=state))
    return SimpleNamespace(app=app, workers=[SimpleNamespace(hostname="w1@host")])


def clock(retries: int) -> dict[str, str]:
    """retry_clock's record of retry `retries`: when the task started and when its retry was published."""
    return {f":l03-retry-clock:{retries}": json.dumps({"started": STARTED.isoformat(),
                                                        "published": PUBLISHED.isoformat()})}


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The check writes a cause in the language in force: English here."""
    monkeypatch.setattr(i18n, "_current", "en")


def fresh_run() -> CheckRun:
    info = SimpleNamespace(id="l03.retry_defaults", module="ex_retries")
    return CheckRun(info, Path("."), include_hidden=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("state", ["RETRY", "FAILURE"])  # its three retries may all be over when the state is read
def test_a_retry_the_worker_ran_at_once_is_read_as_run_with_its_wait_named(state):
    ran = {":l03-retry-ran:1": json.dumps((PUBLISHED + timedelta(seconds=0.004)).isoformat())}
    stack = fake_stack(state, {**clock(1), **ran})
    run = fresh_run()
    begun = time.monotonic()
    checks.waits_and_budget(run, stack, "ex.send_invoice", 60, None, "l03.check.invoice_countdown",
                            "l03.check.no_fourth", retries=(0,))
    assert time.monotonic() - begun < 2  # not a wait for a message the worker no longer holds
    [criterion] = run.verdict.criteria
    assert (criterion.key, criterion.passed, criterion.observed) == ("l03.check.invoice_countdown", False, 0.0)
    line = criterion_line(criterion, "en")
    assert "expected 60, observed 0.0" in line
    assert "it ran 0.0 s after it was published, not 60 s" in line
    assert stack.app.control.revoked == ["t1"]  # with no limit it would retry at once without end


def test_a_retry_held_for_its_eta_is_read_from_the_eta():
    eta = PUBLISHED + timedelta(seconds=60)
    held = {"w1@host": [{"request": {"id": "t1"}, "eta": eta.isoformat()}]}
    stack = fake_stack("RETRY", clock(1), held)
    run = fresh_run()
    checks.waits_and_budget(run, stack, "ex.send_invoice", 60, None, "l03.check.invoice_countdown",
                            "l03.check.no_fourth", retries=(0,))
    [criterion] = run.verdict.criteria
    assert (criterion.passed, criterion.observed, criterion.cause) == (True, 60, None)
    assert stack.app.control.revoked == []


def test_a_task_that_retried_instead_of_failing_is_reported_by_its_state():
    eta = PUBLISHED + timedelta(seconds=60)
    held = {"w1@host": [{"request": {"id": "t1"}, "eta": eta.isoformat()}]}
    stack = fake_stack("RETRY", clock(1), held)
    run = fresh_run()
    checks.waits_and_budget(run, stack, "ex.charge_once", 60, 0, "l03.check.declared_countdown",
                            "l03.check.declared_no_more", task="ex.charge_once", declared="max_retries=0")
    [criterion] = run.verdict.criteria
    assert (criterion.key, criterion.passed, criterion.observed) == ("l03.check.declared_no_more", False, "RETRY")
    assert "it retried: its retry 1 was scheduled 60 s later" in criterion_line(criterion, "en")


def test_retry_clock_keys_the_run_of_a_retry_apart_from_its_publication():
    backend = Backend({})
    assert retry_clock.key(backend, "t1", 2) == "t1:l03-retry-clock:2"
    assert retry_clock.key(backend, "t1", 2, "retry-ran") == "t1:l03-retry-ran:2"
