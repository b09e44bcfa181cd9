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


def test_the_notes_endpoint_shows_pending_then_success_and_progress(stack, http, observe):
    ana = http.post("/users", json={"name": "Ana", "email": "ana@example.com"}).json()["task_id"]
    bruno = http.post("/users", json={"name": "Bruno", "email": "bruno@example.com"}).json()["task_id"]
    report = scenarios.post_report(http, 5)
    seen = helpers.watch(lambda task_id: status(http, task_id), {"ana": ana, "bruno": bruno, "report": report},
                         done=lambda answer: answer[0] in ("SUCCESS", "FAILURE"))
    states = [state for i, (state, _) in enumerate(seen["report"]) if i == 0 or seen["report"][i - 1][0] != state]
    steps = [n for state, n in seen["report"] if state == "PROGRESS" and n]  # every step read, in reading order
    progress = sorted(set(steps))
    signups = {name: [state for state, _ in seen[name]] for name in ("ana", "bruno")}
    # Whether the first read comes before a 0.2 s sign-up ends is timing (a loaded machine reads SUCCESS at once):
    # what the route shows is PENDING for as long as it shows anything before SUCCESS, and never STARTED.
    observe.that(signups_read_only_pending_then_success=all(
                     reads in (["PENDING", "SUCCESS"], ["SUCCESS"]) for reads in signups.values()),
                 report_read_pending_progress_success=states in (["PENDING", "PROGRESS", "SUCCESS"],
                                                                 ["PROGRESS", "SUCCESS"]),
                 # a loaded machine's poll round can outlast one step: every step read is one of 1-5, in order
                 progress_read_in_order_within_1_to_5=bool(progress) and set(progress) <= {1, 2, 3, 4, 5}
                 and steps == sorted(steps),
                 why=f"sign-ups read {signups}, the report read {seen['report']}")
    assert all(answer[1] is None for name in ("ana", "bruno") for answer in seen[name]), seen


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_an_expired_result_and_an_invented_id_both_read_pending(stack, http, observe):
    task_id = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    succeeded = helpers.until(lambda: status(http, task_id)[0] == "SUCCESS", 5)
    observe.that(succeeded=bool(succeeded))
    key = helpers.result_key(stack, task_id)
    kept = AsyncResult(task_id, app=stack.app)
    client = helpers.redis_client(stack)
    ttl = helpers.ttl_seconds(client, key)
    observe.equal(kept_state=(kept.state, "SUCCESS"), ttl=(ttl, helpers.RESULT_EXPIRES))
    asked = time.monotonic()
    expires_at = asked + client.pttl(key) / 1000  # Redis answered after `asked`: the key lives at least this long
    pending = helpers.until(lambda: status(http, task_id)[0] == "PENDING", helpers.RESULT_EXPIRES + 10)
    pending_at = time.monotonic()
    # an order, not a time bound: the route says PENDING again only once the key's own TTL has run out
    observe.that(reads_pending_again=bool(pending), pending_only_once_the_ttl_ran_out=pending_at >= expires_at - 0.05,
                 why=f"read PENDING at {pending_at:.3f}, the key expired at {expires_at:.3f}")
    fresh = AsyncResult(task_id, app=stack.app).state
    observe.equal(kept_object=([kept.state, kept.result], ["SUCCESS", {"status": "sent", "to": "bia@example.com"}]),
                  fresh_object=(fresh, "PENDING"))
    invented = str(uuid.uuid4())
    invented_status = http.get(f"/tasks/{invented}").json()["status"]
    observe.equal(invented_id=(invented_status, "PENDING"))
    try:
        AsyncResult(invented, app=stack.app).get(timeout=1)
        raised = None
    except Exception as error:  # noqa: BLE001 - its class is what the claim records
        raised = error
    observe.equal(get_invented_raises=(type(raised).__name__ if raised else "nothing", CeleryTimeoutError.__name__))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_result_expires_is_truncated_and_below_one_second_never_expires(stack, observe):
    ttls = {str(v): scenarios.ttl_after_success(stack, v)["ttl"]
            for v in (DEFAULTS["result_expires"], 3, 2.7, 1.5, 0.5, 0, None)}
    observe.equal(ttl=(ttls, {"1 day, 0:00:00": 86400, "3": 3, "2.7": 2, "1.5": 1, "0.5": -1, "0": -1, "None": -1}))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_a_real_worker_truncates_too(stack, observe):
    stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("e27",), settings={"result_expires": 2.7}))
    result = stack.app.send_task("l04.double", (1,), queue="e27")
    value = result.get(timeout=10)
    ttl = helpers.ttl_seconds(helpers.redis_client(stack), helpers.result_key(stack, result.id))
    observe.equal(result=(value, 2), ttl=(ttl, 2))


def test_started_only_with_task_track_started(stack, observe):
    plain = stack.app.send_task("l04.slow", (1.0,))
    tracked = stack.app.send_task("l04.slow", (1.0,), queue="tracked")  # no worker consumes it yet: read queued
    # its worker starts beside the reading (the first read raced its STARTED write on a loaded machine)
    seen = scenarios.watch_states(stack, {"plain": plain.id, "tracked": tracked.id}, timeout=60, start=lambda: (
        stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked",),
                                    settings={"task_track_started": True}))))
    observe.equal(track_started_off=(seen["plain"], ["PENDING", "SUCCESS"]),
                  track_started_on=(seen["tracked"], ["PENDING", "STARTED", "SUCCESS"]))


def test_started_expires_too_when_a_task_outlives_result_expires(stack, observe):
    result = stack.app.send_task("l04.slow", (helpers.RESULT_EXPIRES + 2.0,), queue="tracked_long")
    seen = scenarios.watch_states(stack, {"long": result.id}, timeout=60, start=lambda: (
        stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked_long",),
                                    settings={"task_track_started": True}))))["long"]
    observe.equal(states=(seen, ["PENDING", "STARTED", "PENDING", "SUCCESS"]))


def test_results_without_expiry_pile_up_and_nothing_cleans_them(stack, observe):
    forever = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("forever",),
                                          settings={"result_expires": None}))
    results = [stack.app.send_task("l04.double", (n,), queue="forever") for n in range(50)]
    for result in results:
        result.get(timeout=10)
    after_50 = scenarios.result_keys(stack, [r.id for r in results])
    observe.equal(keys_after_50_tasks=(after_50[0], 50), ttls_after_50_tasks=(after_50[1], [-1]))
    results[0].forget()
    after_forget = scenarios.result_keys(stack, [r.id for r in results])
    observe.equal(keys_after_one_forget=(after_forget[0], 49))
    assert after_forget[1] == [-1]
    since = forever.log_offset()
    ignored = [stack.app.send_task("l04.double", (n,), queue="forever", ignore_result=True) for n in range(10)]
    scenarios.wait_succeeded(forever, [r.id for r in ignored], since)
    ignored_keys = scenarios.result_keys(stack, [r.id for r in ignored])
    observe.equal(keys_of_10_ignore_result_tasks=(ignored_keys[0], 0))
    assert ignored_keys[1] == []
    scheduler = Scheduler(stack.app, lazy=True)
    scheduler.install_default_entries({})
    observe.equal(supports_autoexpire=(stack.app.backend.supports_autoexpire, True),
                  beat_installs_backend_cleanup=("celery.backend_cleanup" in scheduler.schedule, False))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_a_failure_gets_result_failure_expires_as_its_ttl(stack, observe):
    probe = scenarios.probe_app(stack, result_failure_expires=60)  # and the stack's result_expires=3
    done, failed = str(uuid.uuid4()), str(uuid.uuid4())
    probe.backend.mark_as_done(done, 42)
    probe.backend.mark_as_failure(failed, ValueError("refused address"))
    client = helpers.redis_client(stack)
    ttls = {"SUCCESS": helpers.ttl_seconds(client, probe.backend.get_key_for_task(done)),
            "FAILURE": helpers.ttl_seconds(client, probe.backend.get_key_for_task(failed))}
    probe.close()
    observe.equal(ttl=(ttls, {"SUCCESS": helpers.RESULT_EXPIRES, "FAILURE": 60}))


def test_exists_tells_a_stored_result_from_no_key_only(stack, observe):
    short = scenarios.probe_app(stack, result_expires=1)
    stored, expired, invented = str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())
    short.backend.mark_as_done(expired, 42)
    stack.app.backend.mark_as_done(stored, 42)
    queued = stack.app.send_task("l04.double", (1,), queue="nobody")  # no worker consumes this queue
    assert helpers.until(lambda: not helpers.redis_client(stack).exists(short.backend.get_key_for_task(expired)), 3)
    short.close()
    ids = {"stored": stored, "queued": queued.id, "expired": expired, "invented": invented}
    try:
        exists = {name: AsyncResult(task_id, app=stack.app).exists() for name, task_id in ids.items()}
    except AttributeError as error:  # a release without AsyncResult.exists()
        exists = type(error).__name__
    observe(states={name: AsyncResult(task_id, app=stack.app).state for name, task_id in ids.items()})
    observe.equal(exists=(exists, {"stored": True, "queued": False, "expired": False, "invented": False}))


def test_a_call_can_ask_for_the_result_a_task_ignores(stack, observe):
    quiet = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("quiet",),
                                        settings={"task_ignore_result": True}))
    since = quiet.log_offset()
    asked = stack.app.send_task("l04.double", (2,), queue="quiet", ignore_result=False)
    plain = stack.app.send_task("l04.double", (3,), queue="quiet")
    scenarios.wait_succeeded(quiet, [asked.id, plain.id], since)
    states = {"ignore_result=False": AsyncResult(asked.id, app=stack.app).state,
              "no option": AsyncResult(plain.id, app=stack.app).state}
    observe.equal(state=(states, {"ignore_result=False": "SUCCESS", "no option": "PENDING"}))
