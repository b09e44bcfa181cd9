"""Supervising one grading job: a hard time budget per attempt, fresh folders for each, resumed after a crash,
and no verdict from a job whose sandbox did not hold (job_launch.py starts each attempt)."""
from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from celerylab.checks.verdict import Verdict
from celerylab.course import Course
from celerylab.grader.job_launch import job_env, job_folder, job_uids, launch, remove  # noqa: F401 (job_env: API)
from celerylab.grader.sandbox import attempt
from celerylab.grader.sandbox.confine import failed_parts
from celerylab.grader.spec import JobResult, JobSpec, course_root

LOG_KEPT = 64 * 1024  # of a failed job's log, the end kept for the instructor
PROBE_SECONDS = 120
START_SECONDS = 60  # a job's time beyond its notebook's and checks': its sandbox, kernel and stacks starting


def logs(folder: Path) -> str:
    """The end of every attempt's log, for the instructor (a grader failure keeps it beside the gradebook)."""
    text = "".join(f"--- {path.name}\n" + path.read_text(encoding="utf-8", errors="replace")
                   for path in sorted(folder.glob("job*.log")))
    return text[-LOG_KEPT:]


class ProbeFailed(Exception):
    """The probe job could not do what every grading job does: `part` ("import" or "database"), `detail`, its `log`."""

    def __init__(self, part: str, detail: str, log: str):
        super().__init__(detail)
        self.part, self.detail, self.log = part, detail, log


def probe(course: Course) -> str | None:
    """Start one confined job that only imports what grading needs, reads `course` and starts the stack's
    database: None when it can, else its log when it cannot import; ProbeFailed("database") when the
    database cannot start (no PostgreSQL exercise could be graded: the machine's fault, not the learners')."""
    folder = job_folder()
    uids = job_uids() if os.geteuid() == 0 else {}
    try:
        spec = JobSpec([], root=course_root(course), probe=True, **uids)
        records = launch(spec, folder, attempt.fresh(folder, 0, uids.get("uid")), 0, PROBE_SECONDS, {})
        done = next((record for record in records if record.get("kind") == "probe"), None)
        if done is None:
            return logs(folder)
        if done.get("database"):
            raise ProbeFailed("database", str(done["database"]), logs(folder))
        return None
    finally:
        remove(folder, uids.get("uid"))


def answers_and_checks(job: JobSpec) -> tuple[list[str], list[Path]]:
    """The answer modules of the job's exercises and their checks' files (an unknown exercise: none)."""
    course, modules, checks = Course.at(job.root), [], []
    for exercise in job.exercises:
        try:
            info = course.find_exercise(exercise)
        except Exception:  # the job reports it as this exercise's grader error
            continue
        modules.append(info.module)
        checks.append(Path(info.checks_path))
    return modules, [path for path in checks if path.is_file()]


def run_job(job: JobSpec) -> JobResult:
    """Grade one prepared submission: the execution notes, a verdict per exercise, the confinement given.

    Each attempt runs in fresh folders (sandbox/attempt.py). An exercise whose check never started (the job
    died first: the grader's fault, not the learner's) is a grader failure, and so is every exercise of a
    confined job whose sandbox did not fully hold (fail closed: confine.failed_parts). An exercise whose job
    died while its check ran is checked once more, after the others (`decide_lost`); lost again, or out of
    the job's time, it is lost. The jobs' log comes back with the result when the grader failed or a job died
    during a check (kept beside the gradebook for the instructor).
    """
    folder = job_folder()
    if job.confine and os.geteuid() == 0 and not job.uid:
        job = replace(job, **job_uids())
    uid = job.uid if job.confine else None
    modules, checks = answers_and_checks(job)
    over = attempt.private_checks(folder, checks) if job.confine else {}
    pending, verdicts, notes, confinement, previous = list(job.exercises), {}, None, None, None
    retried: list[str] = []  # exercises whose job died while their check ran: checked once more, last
    # One wall-clock end for the whole job, every attempt included: a crash the learner's code causes (the job
    # process killed or stopped) is resumed, but never makes the job last longer than a job that ran out of time.
    end = time.monotonic() + job.notebook_timeout + START_SECONDS + job.check_timeout * max(1, len(pending))
    try:
        for number in range(2 * len(pending) + 1):  # each attempt decides an exercise, or loses one a first time
            execute = notes is None and number == 0
            current = attempt.fresh(folder, number, uid)
            if previous is not None:
                attempt.carry_answers(previous, current, modules, uid)
            spec = replace(job, execute=execute, exercises=pending)
            budget = (job.notebook_timeout + START_SECONDS if execute else 0) + job.check_timeout * max(1, len(pending))
            records = launch(spec, folder, current, number, budget, over, end)
            confinement = next((record for record in records if record.get("kind") == "confinement"), None) \
                if job.confine else UNSAFE
            refused = failed_parts(confinement) if job.confine else []
            if refused:  # no verdict of a job whose sandbox did not hold counts
                why = "the sandbox did not hold: " + ", ".join(refused)
                verdicts.update({exercise: Verdict.grader_failure(exercise, why) for exercise in pending})
                pending = []
                break
            notes, started, began = read_attempt(records, pending, verdicts, notes)
            deadline = next((record for record in records if record.get("kind") == "deadline"), None)
            if execute and notes is None:
                timed_out = deadline is not None and deadline.get("phase") == "execution"
                notes = [{"kind": "notebook_timeout", "cell": None, "seconds": str(job.notebook_timeout)}
                         if timed_out else {"kind": "execution_crashed", "cell": None}]
            if started in pending and started not in verdicts:
                decide_lost(started, deadline is not None, retried, verdicts)
            pending = [exercise for exercise in pending if exercise not in verdicts and exercise not in retried] + \
                [exercise for exercise in retried if exercise not in verdicts]
            previous = current
            if pending and time.monotonic() >= end:  # the learner's code used the whole job's time: theirs
                verdicts.update({exercise: Verdict.lost(exercise) for exercise in pending})
                pending = []
            if not pending or (not began and not execute):  # no check could start: another try cannot help
                break
        for exercise in pending:
            verdicts[exercise] = Verdict.grader_failure(exercise, "the job ended before its check started")
        kept = bool(retried) or any(verdict.grader_error or verdict.crashed for verdict in verdicts.values())
        return JobResult(notes or [], verdicts, confinement, logs(folder) if kept else None)
    finally:
        remove(folder, uid)


UNSAFE = {"kind": "confinement", "given": [], "missing": ["all (--unsafe-no-sandbox)"], "unsafe": True}


def decide_lost(exercise: str, timed_out: bool, retried: list[str], verdicts: dict) -> None:
    """The job ended while `exercise`'s check ran. A check that ran past its time (the watchdog ended the attempt)
    is lost: the learner's. A job that died is not the learner's by itself (the grader's own process can die):
    the exercise is checked once more in a fresh attempt (`retried`), after the exercises not yet checked, so
    the retry never takes their time; dying again, it is lost. The job's `end` bounds the retry like any attempt."""
    if timed_out or exercise in retried:
        verdicts[exercise] = Verdict.lost(exercise)
    else:
        retried.append(exercise)


def read_attempt(records: list[dict], pending: list[str], verdicts: dict, notes):
    """One attempt's records: the execution notes, the check that started last without a verdict, whether any began."""
    started, began = None, False
    for record in records:
        if record.get("kind") == "execution":
            notes = record.get("notes", [])
        elif record.get("kind") == "start":
            started, began = record.get("exercise"), True
        elif record.get("kind") == "verdict" and record.get("exercise") in pending:
            verdicts[record["exercise"]] = Verdict.from_record(record.get("verdict"), record["exercise"])
            started = None
    return notes, started, began
