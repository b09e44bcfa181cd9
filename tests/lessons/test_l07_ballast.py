"""Lesson 07's simulated bigger child: the check's variable is read by the lesson's tasks and gone from the environment."""
from __future__ import annotations

import os
import subprocess
import sys

from celerylab.lessons.l07_resilience.tasks import BALLAST_ENV

PROBE = ("import os; from celerylab.lessons.l07_resilience import tasks; "
         "print(len(tasks._ballast) // 2 ** 20, os.environ.get(tasks.BALLAST_ENV))")


def test_the_ballast_is_held_and_its_variable_no_longer_readable():
    """What imports the tasks next (the learner's configuration) cannot size a memory limit on the check's variable."""
    env = {**os.environ, BALLAST_ENV: "3"}
    printed = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True).stdout
    assert printed.split() == ["3", "None"]
