"""What the leftovers check reads in one raw Redis message: a queued task, an `unacked` entry, anything else."""
from __future__ import annotations

import json
import os
import threading
from types import SimpleNamespace

import pytest

from celerylab.lessons.l01_retries.leftovers import headers, running, task_name

QUEUED = json.dumps({"body": "W10=", "headers": {"task": "l01.send_welcome", "id": "abc", "eta": None}})


def test_a_queued_message_and_an_unacked_entry_give_the_task_and_its_id():
    assert task_name(QUEUED) == "l01.send_welcome" and headers(QUEUED)["id"] == "abc"
    unacked = json.dumps([json.loads(QUEUED), "", "celery"]).encode()
    assert task_name(unacked) == "l01.send_welcome" and headers(unacked)["id"] == "abc"


@pytest.mark.parametrize("raw", [b"\xff\xfe", "not json", "[]", "[1, 2]", '{"headers": null}', '"text"',
                                 json.dumps({"headers": {"task": ""}}), json.dumps({"pattern": "reply"})])
def test_anything_but_a_task_message_is_no_task(raw):
    assert task_name(raw) is None


def test_a_thread_left_running_adds_to_the_count_of_the_workers_process():
    stack = SimpleNamespace(workers=[SimpleNamespace(pid=os.getpid())])
    before = running(stack)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert running(stack)[os.getpid()] > before[os.getpid()]
    finally:
        stop.set()
        thread.join()


def test_a_worker_gone_is_left_out():
    assert running(SimpleNamespace(workers=[SimpleNamespace(pid=2 ** 22 + 12345)])) == {}
