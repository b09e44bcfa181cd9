"""Chain and chord failures, Flower's auth and Prometheus counters, ids versus objects, time limits, task-id logging."""
from __future__ import annotations

import time

import pytest
from celery import chain, chord, group

from celerylab.appdb import execute
from celerylab.lessons.l06_architecture import helpers, tasks

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def stack():
    with helpers.start(flower=True) as stack:
        yield stack


def test_a_failed_step_fails_the_rest_of_the_chain(stack):
    last = chain(tasks.validate_csv.s("name,email\nana,ana-at-example.com\n"), tasks.transform.s(),
                 tasks.insert.s(), tasks.notify.s("ops@example.com")).apply_async()
    steps = [last, last.parent, last.parent.parent, last.parent.parent.parent]
    assert helpers.until(lambda: all(step.state == "FAILURE" for step in steps))
    assert all(isinstance(step.result, ValueError) for step in steps)


def test_a_failed_member_leaves_the_callback_with_a_chord_error(stack):
    broken = chord(group(tasks.process_chunk.s(i) for i in (1, 2, 13, 4)), tasks.consolidate.s()).apply_async()
    assert helpers.until(lambda: broken.state != "PENDING")
    assert broken.state == "FAILURE" and type(broken.result).__name__ == "ChordError"
    assert "chunk 13" in str(broken.result)
    assert [member.state for member in broken.parent.results] == ["SUCCESS", "SUCCESS", "FAILURE", "SUCCESS"]


def test_flower_asks_for_the_password_except_on_metrics(stack):
    anonymous, flower = helpers.flower(stack, auth=False), helpers.flower(stack)
    for path in ("/", "/api/workers", "/api/tasks"):
        assert (anonymous.get(path).status_code, flower.get(path).status_code) == (401, 200), path
    assert anonymous.get("/metrics").status_code == 200
    assert "flower_events_total" in anonymous.get("/metrics").text


def test_flower_counts_events_per_try(stack):
    flower = helpers.flower(stack)
    before = helpers.metric_values(flower.get("/metrics").text, "flower_events_total")
    burst = [tasks.capture.delay(n) for n in range(5)] + [tasks.refund.delay(n) for n in range(3)]
    for result in burst:
        result.get(timeout=20, propagate=False)

    def moved():
        after = helpers.metric_values(flower.get("/metrics").text, "flower_events_total")
        delta = {}
        for labels, value in after.items():
            fields = dict(part.split("=", 1) for part in labels)
            key = (fields["task"], fields["type"])
            delta[key] = delta.get(key, 0) + value - before.get(labels, 0)
        return delta if delta.get(("payment.capture", "task-succeeded")) == 5 and \
            delta.get(("payment.refund", "task-failed")) == 3 else None

    delta = helpers.until(moved)
    assert delta, "Flower did not count the burst"
    assert delta[("payment.capture", "task-retried")] == 10
    assert delta[("payment.capture", "task-received")] == 15
    assert delta[("payment.refund", "task-received")] == 3


def test_an_object_is_a_snapshot_an_id_reads_now(stack):
    db = stack.db()
    execute(db, "INSERT INTO users (id, name, plan) VALUES (7, 'Ana', 'free')")
    snapshot = tasks.invoice_snapshot.apply_async(({"id": 7, "name": "Ana", "plan": "free"},), countdown=1)
    by_id = tasks.invoice.apply_async((7,), countdown=1)
    execute(db, "UPDATE users SET plan = 'pro' WHERE id = 7")
    assert snapshot.get(timeout=10).endswith("plan free")
    assert by_id.get(timeout=10).endswith("plan pro")


def test_soft_then_hard_time_limit(stack):
    for stubborn, error, low, high in ((False, "SoftTimeLimitExceeded", 0.9, 1.9), (True, "TimeLimitExceeded", 1.9, 3.5)):
        sent = time.time()
        result = tasks.sync_erp.delay(30, stubborn)
        result.get(timeout=15, propagate=False)
        took = time.time() - sent
        assert (result.state, type(result.result).__name__) == ("FAILURE", error)
        assert low <= took <= high, (stubborn, took)


def test_only_the_task_logger_names_the_task(stack):
    result = tasks.import_file.delay(42)
    result.get(timeout=10)
    worker = next(w for w in stack.workers if w.spec.queues == ("default",))
    worker.wait_for_log(r"importing file 42 \(extra\)", timeout=10)
    lines = [line for line in worker.logs.splitlines() if "importing file 42" in line]
    assert len(lines) == 3
    assert f"data.import_file[{result.id}]" in lines[0]
    assert all(result.id not in line for line in lines[1:])  # the notes' extra= included
