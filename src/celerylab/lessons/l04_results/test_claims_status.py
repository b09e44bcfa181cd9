"""What the backend says about a task: PENDING for expired and invented ids, TTL truncation, STARTED, key growth."""
from __future__ import annotations

import time
import uuid

import pytest
from celery.app.defaults import DEFAULTS
from celery.beat import Scheduler
from celery.exceptions import TimeoutError as CeleryTimeoutError
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers, scenarios
from celerylab.stack import WorkerSpec

pytestmark = pytest.mark.live


def status(http, task_id):
    answer = http.get(f"/tasks/{task_id}").json()
    return answer["status"], (answer.get("progress") or {}).get("current")


def test_the_notes_endpoint_shows_pending_then_success_and_progress(stack, http):
    ana = http.post("/users", json={"name": "Ana", "email": "ana@example.com"}).json()["task_id"]
    bruno = http.post("/users", json={"name": "Bruno", "email": "bruno@example.com"}).json()["task_id"]
    report = scenarios.post_report(http, 5)
    seen = helpers.watch(lambda task_id: status(http, task_id), {"ana": ana, "bruno": bruno, "report": report},
                         done=lambda answer: answer[0] in ("SUCCESS", "FAILURE"))
    assert seen["ana"] == seen["bruno"] == [("PENDING", None), ("SUCCESS", None)]
    states = [state for i, (state, _) in enumerate(seen["report"]) if i == 0 or seen["report"][i - 1][0] != state]
    assert states == ["PENDING", "PROGRESS", "SUCCESS"]
    assert sorted({n for state, n in seen["report"] if state == "PROGRESS" and n}) == [1, 2, 3, 4, 5]


@pytest.mark.needs("redis-server")  # fakeredis expires up to 1 s early
def test_an_expired_result_and_an_invented_id_both_read_pending(stack, http):
    task_id = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    assert helpers.until(lambda: status(http, task_id)[0] == "SUCCESS", 5)
    done_at = time.monotonic()
    key = helpers.result_key(stack, task_id)
    kept = AsyncResult(task_id, app=stack.app)
    assert kept.state == "SUCCESS" and helpers.ttl_seconds(helpers.redis_client(stack), key) == helpers.RESULT_EXPIRES
    assert helpers.until(lambda: status(http, task_id)[0] == "PENDING", 6)
    assert 2.5 <= time.monotonic() - done_at <= 3.6
    assert (kept.state, kept.result) == ("SUCCESS", {"status": "sent", "to": "bia@example.com"})
    assert AsyncResult(task_id, app=stack.app).state == "PENDING"
    invented = str(uuid.uuid4())
    assert http.get(f"/tasks/{invented}").json()["status"] == "PENDING"
    with pytest.raises(CeleryTimeoutError):
        AsyncResult(invented, app=stack.app).get(timeout=1)


@pytest.mark.needs("redis-server")  # fakeredis expires up to 1 s early
def test_result_expires_is_truncated_and_below_one_second_never_expires(stack):
    ttls = {str(v): scenarios.ttl_after_success(stack, v)["ttl"]
            for v in (DEFAULTS["result_expires"], 3, 2.7, 1.5, 0.5, 0, None)}
    assert ttls == {"1 day, 0:00:00": 86400, "3": 3, "2.7": 2, "1.5": 1, "0.5": -1, "0": -1, "None": -1}


@pytest.mark.needs("redis-server")  # fakeredis expires up to 1 s early
def test_a_real_worker_truncates_too(stack):
    stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("e27",), settings={"result_expires": 2.7}))
    result = stack.app.send_task("l04.double", (1,), queue="e27")
    assert result.get(timeout=10) == 2
    assert helpers.ttl_seconds(helpers.redis_client(stack), helpers.result_key(stack, result.id)) == 2


def test_started_only_with_task_track_started(stack):
    stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked",),
                                settings={"task_track_started": True}))
    plain = stack.app.send_task("l04.slow", (1.0,))
    tracked = stack.app.send_task("l04.slow", (1.0,), queue="tracked")
    seen = scenarios.watch_states(stack, {"plain": plain.id, "tracked": tracked.id})
    assert seen == {"plain": ["PENDING", "SUCCESS"], "tracked": ["PENDING", "STARTED", "SUCCESS"]}


def test_started_expires_too_when_a_task_outlives_result_expires(stack):
    stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked_long",),
                                settings={"task_track_started": True}))
    result = stack.app.send_task("l04.slow", (helpers.RESULT_EXPIRES + 0.6,), queue="tracked_long")
    seen = scenarios.watch_states(stack, {"long": result.id})["long"]
    assert seen == ["PENDING", "STARTED", "PENDING", "SUCCESS"]


def test_results_without_expiry_pile_up_and_nothing_cleans_them(stack):
    forever = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("forever",),
                                          settings={"result_expires": None}))
    results = [stack.app.send_task("l04.double", (n,), queue="forever") for n in range(50)]
    for result in results:
        result.get(timeout=10)
    assert scenarios.result_keys(stack, [r.id for r in results]) == (50, [-1])
    results[0].forget()
    assert scenarios.result_keys(stack, [r.id for r in results]) == (49, [-1])
    since = forever.log_offset()
    ignored = [stack.app.send_task("l04.double", (n,), queue="forever", ignore_result=True) for n in range(10)]
    scenarios.wait_succeeded(forever, [r.id for r in ignored], since)
    assert scenarios.result_keys(stack, [r.id for r in ignored]) == (0, [])
    scheduler = Scheduler(stack.app, lazy=True)
    scheduler.install_default_entries({})
    assert stack.app.backend.supports_autoexpire is True
    assert "celery.backend_cleanup" not in scheduler.schedule
