"""The jobs table tells apart what PENDING hides; what revoke stops, with and without terminate."""
from __future__ import annotations

import uuid

import pytest

from celerylab.lessons.l04_results import helpers, scenarios

pytestmark = pytest.mark.live


def test_the_row_tells_apart_what_the_backend_reads_as_pending(stack, http):
    welcome = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    done = scenarios.wait_row_left(stack, welcome, ("queued", "running"))
    assert done["state"] == "done" and done["result"] == {"status": "sent", "to": "bia@example.com"}
    assert helpers.until(lambda: http.get(f"/tasks/{welcome}").json()["status"] == "PENDING", 6)
    bulk = http.post("/emails/bulk", params={"countdown": 2}, json=["c@example.com"]).json()["task_id"]
    report = scenarios.post_report(http, 8)
    refused = http.post("/users", json={"name": "Zé", "email": "no-address"}).json()["task_id"]
    scenarios.wait_progress(stack, report, 1)
    scenarios.wait_row_left(stack, refused, ("queued", "running"))
    invented = str(uuid.uuid4())
    endpoint = {name: http.get(f"/tasks/{job}").json()["status"]
                for name, job in [("expired", welcome), ("invented", invented), ("countdown", bulk),
                                  ("running", report), ("refused", refused)]}
    assert endpoint == {"expired": "PENDING", "invented": "PENDING", "countdown": "PENDING",
                        "running": "PROGRESS", "refused": "FAILURE"}
    assert helpers.row(stack, invented) is None
    assert [helpers.row(stack, job)["state"] for job in (welcome, bulk, report, refused)] == \
        ["done", "queued", "running", "failed"]
    assert helpers.row(stack, welcome)["result"] == {"status": "sent", "to": "bia@example.com"}


def test_revoking_a_queued_task_marks_it_at_once_and_discards_it_at_its_eta(stack, http):
    worker = stack.workers[0]
    since = worker.log_offset()
    bulk = http.post("/emails/bulk", params={"countdown": 1.5}, json=["d@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk}\] received", timeout=5, since=since)
    http.delete(f"/tasks/{bulk}")
    assert helpers.until(lambda: http.get(f"/tasks/{bulk}").json()["status"] == "REVOKED", 5)
    assert helpers.row(stack, bulk)["state"] == "queued"
    job = scenarios.wait_row_left(stack, bulk, ("queued",))
    assert (job["state"], job["result"]) == ("revoked", None)
    assert worker.wait_for_log(rf"Discarding revoked task: l04.bulk\[{bulk}\]", timeout=5, since=since)


def test_revoke_without_terminate_does_not_stop_a_running_task(stack, http):
    report = scenarios.post_report(http, 4)
    scenarios.wait_progress(stack, report, 2)
    http.delete(f"/tasks/{report}")
    job = scenarios.wait_row_left(stack, report, ("queued", "running"))
    assert (job["state"], job["progress"], job["total"]) == ("done", 4, 4)
    assert http.get(f"/tasks/{report}").json()["status"] == "SUCCESS"


def test_terminate_kills_the_pool_process_halfway(stack, http):
    worker = stack.workers[0]
    since = worker.log_offset()
    report = scenarios.post_report(http, 10)
    scenarios.wait_progress(stack, report, 2)
    before = worker.child_pids()
    http.delete(f"/tasks/{report}", params={"terminate": True})
    job = scenarios.wait_row_left(stack, report, ("queued", "running"))
    assert http.get(f"/tasks/{report}").json()["status"] == "REVOKED"
    assert job["state"] == "revoked" and job["progress"] < job["total"]
    assert worker.wait_for_log(rf"Terminating {report} \(15\)", timeout=5, since=since)
    assert scenarios.replaced_children(worker, before) == 1


def test_revoked_ids_do_not_survive_a_restart_and_the_revoked_task_runs(stack, http):
    worker = stack.workers[0]
    since = worker.log_offset()
    bulk = http.post("/emails/bulk", params={"countdown": 2}, json=["e@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk}\] received", timeout=5, since=since)
    http.delete(f"/tasks/{bulk}")

    def revoked():
        inspect = stack.app.control.inspect(destination=[worker.hostname], timeout=1)
        return helpers.until(inspect.revoked, timeout=10)[worker.hostname]

    assert helpers.until(lambda: bulk in revoked(), 5)
    worker.restart()
    assert revoked() == []
    job = scenarios.wait_row_left(stack, bulk, ("queued", "running"))
    assert job["state"] == "done" and http.get(f"/tasks/{bulk}").json()["status"] == "SUCCESS"
