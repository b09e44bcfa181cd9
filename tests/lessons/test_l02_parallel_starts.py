"""Lesson 02's check starts the stacks of its parallel scenarios one at a time (a start rebinds the lesson's app)."""
from __future__ import annotations

import threading
import time

from celerylab.lessons.l02_workers import checks, helpers


class Run:
    """A CheckRun stand-in whose stack() records how many starts overlap."""

    def __init__(self):
        self.inside, self.most, self.lock = 0, 0, threading.Lock()

    def stack(self, **options):
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        time.sleep(0.2)  # a start takes a while: long enough for the other scenario's to begin
        with self.lock:
            self.inside -= 1
        return options


def test_the_parallel_scenarios_never_start_two_stacks_at_once():
    run = Run()
    outcome = helpers.in_parallel({name: (lambda name=name: checks.started(run, name=name)) for name in ("a", "b", "c")})
    assert run.most == 1
    assert sorted(value["name"] for _, value in outcome.values()) == ["a", "b", "c"]
