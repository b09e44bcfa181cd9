"""Fixtures shared by lesson 01's claim tests: one live stack per module (test_claims_idempotency.py has its own, one per database)."""
from __future__ import annotations

import dataclasses

import pytest

from celerylab.lessons.l01_retries import helpers

#: The claim tests' worker: the lesson's, including the exercises' answers (claims_answers.py), which no module a
#: learner is pointed to registers.
CLAIMS_ANSWERS = "celerylab.lessons.l01_retries.claims_answers"


@pytest.fixture(scope="session")
def claims_workers():
    return [dataclasses.replace(helpers.WORKER, extra_args=(*helpers.WORKER.extra_args, "--include", CLAIMS_ANSWERS))]


@pytest.fixture(scope="module")
def stack(claims_workers):
    with helpers.start(workers=claims_workers) as running:
        yield running
