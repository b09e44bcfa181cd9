"""The jobs table tells apart what PENDING hides; what revoke stops, with and without terminate."""
from __future__ import annotations

import pytest

from celerylab.lessons.l04_results import helpers
from celerylab.lessons.l04_results.experiments.held_send_restart import held_send_restart
from celerylab.lessons.l04_results.experiments.revoke_queued import revoke_queued
from celerylab.lessons.l04_results.experiments.revoke_restart import revoke_restart
from celerylab.lessons.l04_results.experiments.revoke_running import revoke_running
from celerylab.lessons.l04_results.experiments.revoke_running_task import revoke_running_task
from celerylab.lessons.l04_results.experiments.revoke_solo import revoke_solo
from celerylab.lessons.l04_results.experiments.row_vs_backend import row_vs_backend
from celerylab.stack import Stack, WorkerSpec

pytestmark = pytest.mark.live

# seconds a held send waits for its ETA: the reads, the revoke and the restart that must come before it (several
# control round trips and a worker's warm shutdown) fit with room on a loaded machine; 2 s left them a race
HELD = 6


def test_the_row_tells_apart_what_the_backend_reads_as_pending(stack, http, observe):
    rows = {row["situation"]: row for row in row_vs_backend(stack, http, countdown=HELD).rows}
    observe.equal(tasks_endpoint=({name: row["tasks_endpoint"] for name, row in rows.items()},
                                  {"expired": "PENDING", "invented": "PENDING", "countdown": "PENDING",
                                   "running": "PROGRESS", "refused": "FAILURE"}),
                  row_state=({name: row["row_state"] for name, row in rows.items()},
                             {"expired": "done", "invented": "-", "countdown": "queued", "running": "running",
                              "refused": "failed"}),
                  expired_row_result=(rows["expired"]["row_result"], {"status": "sent", "to": "bia@example.com"}))


# seconds to the ETA: the revoke, its mark and the read back all happen before it (a 1.5 s countdown left a loaded
# machine a race: post, the worker's receipt, delete and the polled read within 1.5 s)
COUNTDOWN = 4.0


def test_revoking_a_queued_task_marks_it_at_once_and_discards_it_at_its_eta(stack, http, observe):
    queued = revoke_queued(stack, http, countdown=COUNTDOWN)
    before_eta = queued.endpoint_revoked_before_eta
    observe(endpoint_revoked_before_eta=before_eta, row_before_eta=queued.row_at_that_moment if before_eta else None)
    observe.equal(row_after_eta=(queued.row_later, "revoked"), row_result=(queued.result, None),
                  worker_discarded=(queued.worker_discarded, True))
    assert before_eta  # 5.5's worker marks it only when it discards it, at the ETA
    assert queued.row_at_that_moment == "queued"


def test_revoke_without_terminate_does_not_stop_a_running_task(stack, http, observe):
    kept_on = revoke_running(stack, http, terminate=False, students=4)
    job = kept_on.row
    observe.equal(row_state=(job and job["state"], "done"), pages=(job and f"{job['progress']}/{job['total']}", "4/4"),
                  tasks_endpoint=(kept_on.tasks_endpoint, "SUCCESS"))


def test_terminate_kills_the_pool_process_halfway(stack, http, observe):
    killed = revoke_running(stack, http, terminate=True, students=10)
    job = killed.row
    observe.equal(tasks_endpoint=(killed.tasks_endpoint, "REVOKED"), row_state=(job and job["state"], "revoked"),
                  stopped_halfway=(bool(job) and job["progress"] < job["total"], True), why=f"the job's row: {job}")
    observe.equal(worker_logged_sigterm=(killed.worker_log, True), pool_processes_replaced=(killed.pool_processes_replaced, 1))


def test_revoked_ids_do_not_survive_a_restart_and_the_revoked_task_runs(stack, http, observe):
    restart = revoke_restart(stack, http, countdown=HELD)  # this module's stack has one worker: no peer to copy from
    observe.that(revoked_id_in_memory=restart.remembered)
    observe.equal(revoked_ids_after_restart=(restart.revoked_after_restart, 0))
    observe.equal(row_state=(restart.row_state, "done"), tasks_endpoint=(restart.tasks_endpoint, "SUCCESS"))


def test_revoking_a_running_task_leaves_its_state_to_it(stack, observe):
    revoked = revoke_running_task(stack, stack.workers[0])  # one worker, no task_track_started
    # nothing is stored until it ends (whether a read lands before a REVOKED write is timing: observe whether one
    # was read at all, every 20 ms over the 3 s it runs)
    observe.equal(revoked_while_running=(revoked.active, True), read_revoked=("REVOKED" in revoked.states, False),
                  ends_in_success=(revoked.states[-1] == "SUCCESS", True), why=f"states read: {revoked.states}")


@pytest.fixture(scope="module")
def side():
    stacks = helpers.side_stacks({"alone": (0, ()), "with_peer": (1, ()), "no_mingle": (1, ("--without-mingle",))})
    try:
        yield stacks
    finally:
        for running in stacks.values():
            running.close()


def test_a_peer_worker_marks_a_running_revoked_task_revoked(side, observe):
    seen = {}
    for name in ("alone", "with_peer"):
        revoked = revoke_running_task(side[name], side[name].workers[0])
        assert revoked.active
        seen[name] = revoked.states
    # Whether the first read comes before or after a REVOKED write is timing: observe what was read, not its order.
    # "the worker leaves a running task's state alone" holds alone only: a peer writes REVOKED
    observe.equal(alone_read_revoked=("REVOKED" in seen["alone"], False), alone_ends=(seen["alone"][-1], "SUCCESS"),
                  with_peer_read_revoked=("REVOKED" in seen["with_peer"], True),
                  with_peer_ends=(seen["with_peer"][-1], "SUCCESS"), why=f"states read: {seen}")


def test_mingle_copies_revoked_ids_to_a_restarted_worker(side, observe):
    outcome = {}
    for name, stack in side.items():
        held = held_send_restart(stack, stack.workers[0], countdown=HELD)
        outcome[name] = [held.revoked_after_restart, held.held_send]
    fates = {"alone": [False, "ran"], "with_peer": [True, "discarded"], "no_mingle": [False, "ran"]}
    observe.equal(**{name: (value, fates[name]) for name, value in outcome.items()})


def test_terminate_stops_nothing_on_a_solo_worker(observe):
    with Stack.start(helpers.APP, workers=[WorkerSpec(pool="solo", queues=("solo",))], timeline=False) as stack:
        ended = revoke_solo(stack, stack.workers[0])
    # a prefork worker replies at once and ends it REVOKED
    observe.equal(replies_within_1_s=(ended.replies_within_1_s, 0), ended=(ended.ended, "SUCCESS"))
