"""An exercise whose job died while its check ran is checked once more before it counts as lost; the job's
log is kept; and no retry makes a job last past its one wall-clock end. Attempts here are played by a fake
launcher on a fake clock (the live ones: test_job_lost.py)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from grading_files import FIXTURE_COURSE

from celerylab.grader import job_supervisor
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.spec import JobSpec, course_root

EXERCISES = ["l90.double", "l90.greet"]
PASSED = {"criteria": [{"key": "k", "expected": "1", "observed": "1", "passed": True}]}


class Attempts:
    """Plays each attempt of a job as `script` says, on its own clock: per exercise, what its check does at each
    of its runs: "pass"; "die" (the job process dies 2 s into it); ("die", s) (dies after s seconds); "loop"
    (never ends). The watchdog of job_launch.launch is played too: an attempt is ended (a "deadline" record)
    at its check's deadline or the job's `end`, else `budget` after it started."""

    def __init__(self, script: dict[str, list]):
        self.script, self.now, self.calls = script, 1000.0, []

    def launch(self, spec, folder, current, number, budget, over, end=None):
        self.calls.append({"exercises": list(spec.exercises), "execute": spec.execute, "end": end,
                           "started": self.now})
        (folder / f"job{number}.log").write_text(f"attempt {number}: Killed\n")
        stop = end if end is not None else self.now + budget
        records: list[dict] = [{"kind": "confinement", "given": [], "missing": []}]
        if spec.execute:
            self.now += 5
            records.append({"kind": "execution", "notes": []})
        for exercise in spec.exercises:
            records.append({"kind": "start", "exercise": exercise})
            what = self.script[exercise].pop(0)
            seconds = {"pass": 1, "die": 2, "loop": spec.check_timeout + 60}.get(what) if isinstance(what, str) \
                else what[1]
            if self.now + seconds >= stop:
                self.now = stop
                return records + [{"kind": "deadline", "phase": "check"}]
            self.now += seconds
            if what == "loop":
                return records + [{"kind": "deadline", "phase": "check"}]
            if what != "pass":
                return records  # the job process died: no verdict, no deadline
            records.append({"kind": "verdict", "exercise": exercise, "verdict": {**PASSED, "exercise": exercise}})
        return records


@pytest.fixture
def attempts(monkeypatch):
    def play(script: dict[str, list]) -> Attempts:
        played = Attempts(script)
        monkeypatch.setattr(job_supervisor, "launch", played.launch)
        monkeypatch.setattr(job_supervisor, "time", SimpleNamespace(monotonic=lambda: played.now))
        return played
    return play


def job(check_timeout: float = 10) -> JobSpec:
    return JobSpec(list(EXERCISES), notebook={}, root=course_root(FIXTURE_COURSE), notebook_timeout=20,
                   check_timeout=check_timeout, confine=False)


def outcome(result) -> dict:
    return {exercise: "lost" if verdict.crashed else verdict.passed for exercise, verdict in result.verdicts.items()}


def test_a_job_that_died_once_during_a_check_gets_the_retrys_verdict(attempts):
    played = attempts({"l90.double": ["die", "pass"], "l90.greet": ["pass"]})
    result = run_job(job())
    assert outcome(result) == {"l90.double": True, "l90.greet": True}
    # the retry comes after the exercise not yet checked, in a fresh attempt of its own
    assert [call["exercises"] for call in played.calls] == [EXERCISES, ["l90.greet", "l90.double"]]
    assert "attempt 0: Killed" in result.log  # a job died: the instructor may read why


def test_a_check_that_kills_its_job_every_time_is_lost_after_two_attempts_and_the_log_is_kept(attempts):
    played = attempts({"l90.double": ["die", "die"], "l90.greet": ["pass"]})
    result = run_job(job())
    assert outcome(result) == {"l90.double": "lost", "l90.greet": True}
    assert len(played.calls) == 2
    assert "attempt 0: Killed" in result.log and "attempt 1: Killed" in result.log


def test_a_check_that_outran_its_time_is_lost_without_a_retry(attempts):
    """A loop in the learner's code: the watchdog ended its check at the check's deadline (their time, used)."""
    played = attempts({"l90.double": ["pass"], "l90.greet": ["loop", "pass"]})
    result = run_job(job())
    assert outcome(result) == {"l90.double": True, "l90.greet": "lost"}
    assert len(played.calls) == 1 and result.log


def test_no_retry_takes_a_job_past_its_end(attempts):
    """A check that burns most of the job's time, then kills the job, every time: its retry is ended at the
    job's end, and nothing is started after it."""
    played = attempts({"l90.double": [("die", 60), ("die", 60)], "l90.greet": ["pass"]})
    start = played.now
    end = start + 20 + 60 + 10 * len(EXERCISES)  # run_job's one end for the whole job
    result = run_job(job())
    assert outcome(result) == {"l90.double": "lost", "l90.greet": True}
    assert [call["end"] for call in played.calls] == [end, end]
    assert played.now <= end
