"""Lesson 05's helpers without a live stack: the shared schedule file's second worker waits for the first Beat's send."""
from __future__ import annotations

import sqlite3
from types import SimpleNamespace

from celerylab.lessons.l05_beat import helpers


class FirstBeatSendsLate:
    """A stack with one `worker -B` whose Beat's first send shows up at the `polls_before_send`-th look at the runs."""

    def __init__(self, polls_before_send: int):
        self.connection = sqlite3.connect(":memory:")
        self.connection.execute("CREATE TABLE runs (sender INTEGER, parent INTEGER, sent_at DOUBLE PRECISION, ran_at DOUBLE PRECISION)")
        self.polls, self.polls_before_send = 0, polls_before_send
        self.beats = []
        self.workers = [SimpleNamespace(spec=SimpleNamespace(extra_args=("-B", "-s", "shared-schedule")))]
        self.senders_when_added: list[int] = []

    def db(self):
        self.polls += 1
        if self.polls == self.polls_before_send:
            self.connection.execute("INSERT INTO runs VALUES (101, 100, 0, 0)")
        return self.connection

    def add_worker(self, spec):
        self.senders_when_added.append(helpers.senders_so_far(self))
        self.workers.append(SimpleNamespace(spec=spec))
        return self.workers[-1]


def test_the_second_worker_on_a_shared_file_starts_only_once_the_first_beat_has_sent():
    stack = FirstBeatSendsLate(polls_before_send=4)
    helpers.add_once_sent(stack, SimpleNamespace(extra_args=("-B", "-s", "shared-schedule")))
    assert stack.senders_when_added == [1]
    assert len(stack.workers) == 2
