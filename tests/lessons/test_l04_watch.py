"""Lesson 04's state watch: a task is read until it is ready and no more, so an expiring result is not read twice."""
from __future__ import annotations

from celerylab.lessons.l04_results import helpers


def test_a_ready_task_is_not_read_again_while_another_is_still_polled():
    answers = {"quick": iter(["PENDING", "SUCCESS", "PENDING", "PENDING", "PENDING"]),  # expires after SUCCESS
               "slow": iter(["PENDING", "PENDING", "STARTED", "STARTED", "SUCCESS"])}
    seen = helpers.watch(lambda key: next(answers[key]), {"quick": "quick", "slow": "slow"},
                         done=lambda state: state == "SUCCESS", timeout=5, step=0)
    assert seen == {"quick": ["PENDING", "SUCCESS"], "slow": ["PENDING", "STARTED", "SUCCESS"]}
