"""Lesson 02's claims on redelivery: early ack loses a killed task, acks_late brings it back after the visibility timeout and a sweep."""
from __future__ import annotations

import time

import pytest

from celerylab.lessons.l02_workers import helpers, runs, tasks

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def lab():
    with helpers.start() as running:
        yield running


def test_kombu_defaults_make_a_100_second_sweep():
    defaults = helpers.kombu_defaults()
    assert defaults["visibility_timeout"] == 3600
    assert defaults["unacked_restore_interval"] * defaults["unacked_restore_throttle"] == 100
    assert tasks.app.conf.task_acks_late is False and tasks.app.Task.default_retry_delay == 180


def test_sigkill_loses_early_ack_and_redelivers_acks_late_after_the_visibility_timeout(lab):
    vt = helpers.lab_transport(visibility_timeout=3)
    with helpers.experiment(lab, helpers.worker("early", broker_transport_options=vt),
                            helpers.worker("late", task_acks_late=True, broker_transport_options=vt)) as s:
        early = tasks.work.apply_async(("early", 2), queue="early")
        late = tasks.work.apply_async(("late", 2), queue="late")
        started = runs.running_for(s, "late", 1)["at"]
        runs.running_for(s, "early", 1)
        for worker in s.workers:
            worker.kill()
        assert runs.unacked(s) == 1
        helpers.restart_all(s.workers)
        again = runs.wait(s, "late", count=2, timeout=10)
        assert late.get(timeout=10) == "late"
        assert len(again) == 2 and again[1]["redelivered"] is True
        assert 2.9 <= again[1]["at"] - started <= 3 + 0.5 + 3   # VT + sweep (+ a slow restart)
        assert len(runs.events(s, "early", "start")) == 1 and early.state == "PENDING"


def test_default_sweep_waits_for_a_new_worker_or_100_seconds(lab):
    vt = helpers.lab_transport(visibility_timeout=8, sweep=None)  # longer than a restart on a busy machine
    spec = helpers.worker("late", task_acks_late=True, broker_transport_options=vt)
    with helpers.experiment(lab, spec) as s:
        tasks.work.apply_async(("sweep", 1), queue="late")
        delivered = runs.wait(s, "sweep")[0]["at"]
        s.workers[0].kill()
        s.workers[0].restart()
        assert len(runs.wait(s, "sweep", count=2, timeout=delivered + 9 - time.time())) == 1
        assert runs.unacked(s) == 1
        s.add_worker(spec)
        ready = time.time()
        back = runs.wait(s, "sweep", count=2, timeout=5)
        assert len(back) == 2 and back[1]["at"] - ready <= 1.0


def test_notes_scenario_applies_once_only_with_acks_late(lab):
    vt = helpers.lab_transport(visibility_timeout=3)
    with helpers.experiment(lab, helpers.worker("shop", concurrency=2, broker_transport_options=vt),
                            database=helpers.SHOP) as s:
        tasks.pay.apply_async((1, "evt-1"), queue="shop")
        paid = tasks.pay_late.apply_async((2, "evt-2"), queue="shop")
        runs.wait(s, "evt-1"), runs.wait(s, "evt-2")
        helpers.wait_for(lambda: runs.events(s, "evt-1", "hold") or runs.events(s, "evt-2", "hold"), timeout=10)
        s.workers[0].kill()
        assert helpers.shop(s, 1) == helpers.shop(s, 2) == ("pending", 50, 0)
        s.workers[0].restart()
        assert paid.get(timeout=10) == "applied"
        assert tasks.pay_late.apply_async((2, "evt-2"), queue="shop").get(timeout=10) == "duplicate"
        assert helpers.shop(s, 2) == ("confirmed", 40, 1)
        assert helpers.shop(s, 1) == ("pending", 50, 0)


def test_countdown_longer_than_the_visibility_timeout_runs_more_than_once(lab):
    spec = lambda vt: helpers.worker("celery", concurrency=2, task_acks_late=True,  # noqa: E731
                                     broker_transport_options=helpers.lab_transport(vt))
    with helpers.experiment(lab, spec(1.5), spec(1.5)) as short, helpers.experiment(lab, spec(6), spec(6)) as wide:
        sent = {}
        for name, s in (("short", short), ("wide", wide)):
            s.app.send_task("l02.work", (f"remind-{name}", 0.2), countdown=4)
            s.app.send_task("l02.work", (f"long-{name}", 3))
            sent[name] = time.time()
        remind = {n: runs.watch(s, f"remind-{n}", until=sent[n] + 5.5) for n, s in (("short", short), ("wide", wide))}
        long_ = {n: runs.events(s, f"long-{n}", "start") for n, s in (("short", short), ("wide", wide))}
    assert len(remind["short"]) >= 2 and all(e["at"] - sent["short"] >= 3.9 for e in remind["short"])
    assert len(long_["short"]) >= 2 and long_["short"][1]["at"] - long_["short"][0]["at"] < 3
    assert len(remind["wide"]) == 1 and len(long_["wide"]) == 1
