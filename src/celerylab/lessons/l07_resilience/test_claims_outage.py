"""A Redis restart under busy prefork and solo workers; what the producer's .delay() does meanwhile; the canary check."""
from __future__ import annotations

import gc
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from celery.exceptions import TimeoutError as ResultTimeout
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience import helpers, scenarios

pytestmark = [pytest.mark.live, pytest.mark.needs("redis-server")]
POLICY = {"max_retries": 20, "interval_start": 0, "interval_step": 0.25, "interval_max": 0.25}


def outages(rounds: int) -> list[tuple[str, dict]]:
    """Each case's outage, `rounds` times, on fresh stacks each round."""
    cases = {"nodata": ({}, False), "kept": ({}, True), "solo": ({"workers": [helpers.SOLO]}, True)}
    runs = []
    for _ in range(rounds):
        stacks = helpers.start_many({name: options for name, (options, _) in cases.items()})
        try:
            with ThreadPoolExecutor() as pool:
                runs += zip(cases, pool.map(lambda name: scenarios.outage(stacks[name], cases[name][1]), cases))
        finally:
            for stack in stacks.values():
                stack.close()
    return runs


def test_restart_without_data_loses_the_queue_and_with_data_parks_the_prefetch():
    """Each worker consumes again or exits with the unrecoverable error: never alive and idle."""
    runs = outages(rounds=2)
    for case, run in runs:
        assert any("Connection to broker lost" in line for line in run["log"]), run["log"]
        assert any("Restoring" in line for line in run["log"]), run["log"]
        if not run["alive"]:  # the race in restore_unacked: the worker exits, it does not hang
            assert run["exit_code"] == 1 and any("Unrecoverable error: AttributeError" in line
                                                 for line in run["log"]), run
            continue
        assert run["reconnected"] is not None and run["reconnected"] <= 8.0, run
        assert run["canary"] is not None and run["canary"] <= 20.0, run
        if case == "nodata":
            assert run["never_ran"] >= 8 and run["unacked"] == 0 and run["queued"] == 0, run
        elif case == "kept":  # the reserved messages wait in `unacked`; some tasks ran, yet FAILURE
            assert run["never_ran"] >= 4 and run["unacked"] >= 4, run
            assert run["ran_failure"] >= 1 and "ConnectionError" in repr(run["failure"]), run
            # `unacked` holds the reserved messages that never ran, and (0 to 2 measured) messages of tasks that ran
            # whose ack never reached Redis: they will run again
            assert 0 <= run["ran_and_unacked"] <= run["unacked"] and run["unacked"] - run["ran_and_unacked"] <= run["never_ran"], run
        else:
            assert run["never_ran"] == 0 and run["unacked"] <= 1, run


def timed(app, **options) -> tuple[str, float]:
    started = time.monotonic()
    try:
        app.send_task("l07.work", (0,), **options)
        outcome = "published"
    except Exception as error:
        outcome = type(error).__name__
    return outcome, time.monotonic() - started


def test_delay_during_an_outage_fails_fast_or_blocks_and_the_fix_waits_within_its_budget():
    with helpers.start() as stack:
        variants = {"defaults": {}, "ignore": {"ignore_result": True},
                    "policy": {"ignore_result": True, "retry_policy": POLICY}}
        webs = {name: helpers.producer_app(stack) for name in variants}
        for name, web in webs.items():
            web.send_task("l07.work", (0,), **variants[name])
        gc.collect()
        stack.broker.stop(keep_data=True)
        timer = threading.Timer(3.0, stack.broker.start)
        timer.start()
        with ThreadPoolExecutor() as pool:
            sends = dict(zip(variants, pool.map(
                lambda name: [timed(webs[name], **variants[name]) for _ in range(2)], variants)))
        timer.join()
    assert all(outcome == "OperationalError" and seconds < 2.0 for outcome, seconds in sends["ignore"]), sends
    outcome, seconds = sends["defaults"][0]  # fails fast, or waits for the broker (back after 3 s) and publishes
    assert (outcome == "OperationalError" and seconds < 2.0) or (outcome == "published" and seconds > 1.5), sends
    assert sends["policy"][0][0] == "published" and 1.5 < sends["policy"][0][1] < 5.5, sends


def test_the_result_backend_blocks_a_send_for_about_19_seconds_then_raises():
    with helpers.start() as stack:
        web = helpers.producer_app(stack)
        web.send_task("l07.work", (0,))
        gc.collect()  # its AsyncResult, collected later with Redis down, would add its own ~19 s loop (lesson, section 2)
        stack.broker.stop(keep_data=True)
        try:
            sends = [timed(web) for _ in range(2)]
        finally:
            stack.broker.start()
    assert ("RuntimeError" in [outcome for outcome, _ in sends]), sends
    assert all(15.0 < seconds < 25.0 for outcome, seconds in sends if outcome == "RuntimeError"), sends
    assert helpers.retry_wait(web.backend.retry_policy) == 19.0
    assert helpers.retry_wait(web.conf.task_publish_retry_policy) == 0.6


def test_ping_answers_while_the_worker_consumes_nothing_and_the_canary_does_not():
    with helpers.start() as stack:
        worker, app = stack.workers[0], stack.app

        def canary() -> bool:
            try:
                return app.send_task("l07.echo", ("canary",), expires=3).get(timeout=3) == "canary"
            except ResultTimeout:
                return False

        assert app.control.ping(destination=[worker.hostname], timeout=10) and canary()
        app.control.cancel_consumer("celery", destination=[worker.hostname], reply=True)
        assert app.control.ping(destination=[worker.hostname], timeout=10)
        assert not canary()
        app.control.add_consumer("celery", destination=[worker.hostname], reply=True)
        assert canary()
