"""The jobs table tells apart what PENDING hides; what revoke stops, with and without terminate."""
from __future__ import annotations

import time
import uuid

import pytest
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers, scenarios
from celerylab.stack import Stack, WorkerSpec

pytestmark = pytest.mark.live

# seconds a held send waits for its ETA: the reads, the revoke and the restart that must come before it (several
# control round trips and a worker's warm shutdown) fit with room on a loaded machine; 2 s left them a race
HELD = 6


def test_the_row_tells_apart_what_the_backend_reads_as_pending(stack, http, observe):
    welcome = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    done = scenarios.wait_row_left(stack, welcome, ("queued", "running"))
    observe.equal(welcome_row=(done and done["state"], "done"),
                  welcome_row_result=(done and done["result"], {"status": "sent", "to": "bia@example.com"}))
    expired = helpers.until(lambda: http.get(f"/tasks/{welcome}").json()["status"] == "PENDING", 6)
    observe.that(expired_reads_pending_within_6_s=bool(expired))
    bulk = http.post("/emails/bulk", params={"countdown": HELD}, json=["c@example.com"]).json()["task_id"]
    report = scenarios.post_report(http, 8)
    refused = http.post("/users", json={"name": "Zé", "email": "no-address"}).json()["task_id"]
    scenarios.wait_progress(stack, report, 1)
    scenarios.wait_row_left(stack, refused, ("queued", "running"))
    invented = str(uuid.uuid4())
    endpoint = {name: http.get(f"/tasks/{job}").json()["status"]
                for name, job in [("expired", welcome), ("invented", invented), ("countdown", bulk),
                                  ("running", report), ("refused", refused)]}
    rows = {name: (helpers.row(stack, job) or {}).get("state")
            for name, job in [("expired", welcome), ("invented", invented), ("countdown", bulk),
                              ("running", report), ("refused", refused)]}
    observe.equal(tasks_endpoint=(endpoint, {"expired": "PENDING", "invented": "PENDING", "countdown": "PENDING",
                                             "running": "PROGRESS", "refused": "FAILURE"}),
                  row_state=(rows, {"expired": "done", "invented": None, "countdown": "queued", "running": "running",
                                    "refused": "failed"}))
    assert helpers.row(stack, welcome)["result"] == {"status": "sent", "to": "bia@example.com"}


# seconds to the ETA: the revoke, its mark and the read back all happen before it (a 1.5 s countdown left a loaded
# machine a race: post, the worker's receipt, delete and the polled read within 1.5 s)
COUNTDOWN = 4.0


def test_revoking_a_queued_task_marks_it_at_once_and_discards_it_at_its_eta(stack, http, observe):
    worker = stack.workers[0]
    since = worker.log_offset()
    posted = time.monotonic()  # the API sets the ETA after this instant: COUNTDOWN is its earliest
    bulk = http.post("/emails/bulk", params={"countdown": COUNTDOWN}, json=["d@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk}\] received", timeout=5, since=since)
    http.delete(f"/tasks/{bulk}")
    revoked = helpers.until(lambda: http.get(f"/tasks/{bulk}").json()["status"] == "REVOKED", 5)
    before_eta = bool(revoked) and time.monotonic() - posted < COUNTDOWN
    row_then = helpers.row(stack, bulk)["state"]
    observe(endpoint_revoked_before_eta=before_eta, row_before_eta=row_then if before_eta else None)
    job = scenarios.wait_row_left(stack, bulk, ("queued",), timeout=COUNTDOWN + 10)
    discarded = worker.wait_for_log(rf"Discarding revoked task: l04.bulk\[{bulk}\]", timeout=COUNTDOWN + 5, since=since)
    observe.equal(row_after_eta=(job and job["state"], "revoked"), row_result=(job and job["result"], None),
                  worker_discarded=(bool(discarded), True))
    assert revoked
    assert before_eta  # 5.5's worker marks it only when it discards it, at the ETA
    assert row_then == "queued"


def test_revoke_without_terminate_does_not_stop_a_running_task(stack, http, observe):
    report = scenarios.post_report(http, 4)
    scenarios.wait_progress(stack, report, 2)
    http.delete(f"/tasks/{report}")
    job = scenarios.wait_row_left(stack, report, ("queued", "running"))
    endpoint = http.get(f"/tasks/{report}").json()["status"]
    observe.equal(row_state=(job and job["state"], "done"), pages=(job and f"{job['progress']}/{job['total']}", "4/4"),
                  tasks_endpoint=(endpoint, "SUCCESS"))


def test_terminate_kills_the_pool_process_halfway(stack, http, observe):
    worker = stack.workers[0]
    since = worker.log_offset()
    report = scenarios.post_report(http, 10)
    scenarios.wait_progress(stack, report, 2)
    before = worker.child_pids()
    http.delete(f"/tasks/{report}", params={"terminate": True})
    job = scenarios.wait_row_left(stack, report, ("queued", "running"))
    endpoint = http.get(f"/tasks/{report}").json()["status"]
    observe.equal(tasks_endpoint=(endpoint, "REVOKED"), row_state=(job and job["state"], "revoked"),
                  stopped_halfway=(bool(job) and job["progress"] < job["total"], True), why=f"the job's row: {job}")
    terminating = worker.wait_for_log(rf"Terminating {report} \(15\)", timeout=5, since=since)
    replaced = scenarios.replaced_children(worker, before)
    observe.equal(worker_logged_sigterm=(bool(terminating), True), pool_processes_replaced=(replaced, 1))


def test_revoked_ids_do_not_survive_a_restart_and_the_revoked_task_runs(stack, http, observe):
    worker = stack.workers[0]
    since = worker.log_offset()
    bulk = http.post("/emails/bulk", params={"countdown": HELD}, json=["e@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk}\] received", timeout=5, since=since)
    http.delete(f"/tasks/{bulk}")

    def revoked():
        inspect = stack.app.control.inspect(destination=[worker.hostname], timeout=1)
        return helpers.until(inspect.revoked, timeout=10)[worker.hostname]

    remembered = helpers.until(lambda: bulk in revoked(), 5)
    observe.that(revoked_id_in_memory=bool(remembered))
    worker.restart()
    after = revoked()
    observe.equal(revoked_ids_after_restart=(len(after), 0), why=f"revoked after the restart: {after}")
    job = scenarios.wait_row_left(stack, bulk, ("queued", "running"), timeout=HELD + 24)
    endpoint = http.get(f"/tasks/{bulk}").json()["status"]
    observe.equal(row_state=(job and job["state"], "done"), tasks_endpoint=(endpoint, "SUCCESS"))


def test_revoking_a_running_task_leaves_its_state_to_it(stack, observe):
    worker = stack.workers[0]
    result = stack.app.send_task("l04.slow", (3.0,))

    def inspect():
        return stack.app.control.inspect(destination=[worker.hostname], timeout=1)

    running = helpers.until(lambda: any(task["id"] == result.id
                                        for task in (inspect().active() or {}).get(worker.hostname, [])), 5)
    stack.app.control.revoke(result.id)
    remembered = helpers.until(lambda: result.id in ((inspect().revoked() or {}).get(worker.hostname) or []), 5)
    during = AsyncResult(result.id, app=stack.app).state
    finished = helpers.until(lambda: AsyncResult(result.id, app=stack.app).state == "SUCCESS", 8)
    # no task_track_started: nothing is stored until it ends
    observe.equal(revoked_while_running=(bool(running and remembered), True), state_while_running=(during, "PENDING"),
                  ends_in_success=(bool(finished), True))


@pytest.fixture(scope="module")
def side():
    stacks = scenarios.side_stacks({"alone": (0, ()), "with_peer": (1, ()), "no_mingle": (1, ("--without-mingle",))})
    try:
        yield stacks
    finally:
        for running in stacks.values():
            running.close()


def test_a_peer_worker_marks_a_running_revoked_task_revoked(side, observe):
    seen = {}
    for name in ("alone", "with_peer"):
        stack = side[name]
        result = stack.app.send_task("l04.slow", (3.0,))
        assert scenarios.wait_active(stack, stack.workers[0], result.id)
        stack.app.control.revoke(result.id)
        seen[name] = helpers.states_seen(lambda: AsyncResult(result.id, app=stack.app).state,
                                         lambda state: state == "SUCCESS")
    # Whether the first read comes before or after a REVOKED write is timing: observe what was read, not its order.
    # "the worker leaves a running task's state alone" holds alone only: a peer writes REVOKED
    observe.equal(alone_read_revoked=("REVOKED" in seen["alone"], False), alone_ends=(seen["alone"][-1], "SUCCESS"),
                  with_peer_read_revoked=("REVOKED" in seen["with_peer"], True),
                  with_peer_ends=(seen["with_peer"][-1], "SUCCESS"), why=f"states read: {seen}")


def test_mingle_copies_revoked_ids_to_a_restarted_worker(side, observe):
    outcome = {}
    for name, stack in side.items():
        main = stack.workers[0]
        since = main.log_offset()
        held = stack.app.send_task("l04.bulk", (["f@example.com"], "hi"), countdown=HELD)
        main.wait_for_log(rf"l04.bulk\[{held.id}\] received", timeout=5, since=since)
        stack.app.control.revoke(held.id)
        assert helpers.until(lambda: held.id in scenarios.revoked_ids(stack, main), 5)
        main.restart()
        outcome[name] = (held.id in scenarios.revoked_ids(stack, main), scenarios.held_send_fate(main, held.id, HELD + 24))
    fates = {"alone": [False, "ran"], "with_peer": [True, "discarded"], "no_mingle": [False, "ran"]}
    observe.equal(**{name: (list(value), fates[name]) for name, value in outcome.items()})


def test_terminate_stops_nothing_on_a_solo_worker(observe):
    with Stack.start(helpers.APP, workers=[WorkerSpec(pool="solo", queues=("solo",))], timeline=False) as stack:
        solo = stack.workers[0]
        since = solo.log_offset()
        result = stack.app.send_task("l04.slow", (2.0,), queue="solo")
        solo.wait_for_log(rf"l04.slow\[{result.id}\] received", timeout=5, since=since)
        replies = stack.app.control.revoke(result.id, terminate=True, destination=[solo.hostname], reply=True,
                                           timeout=1)
        ended = scenarios.final_state(stack, result.id)
    # a prefork worker replies at once and ends it REVOKED
    observe.equal(replies_within_1_s=(len(replies), 0), ended=(ended, "SUCCESS"))
