"""What goes into a grading job and what comes out of it, typed; JSON only at the spec file, the pipe and the broker."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from celerylab.checks.verdict import Verdict

if TYPE_CHECKING:
    from celerylab.course import Course


def course_root(course: Course) -> str | None:
    """What a job's spec says of `course` (``JobSpec.root``): its lessons folder, or None for the package's own."""
    return None if course.in_package else str(course.lessons_dir)


@dataclass
class JobSpec:
    """One grading job: the restored notebook, the exercises to check, the course, the limits, the sandbox."""

    exercises: list[str]
    notebook: dict | None = None  # the restored exercises notebook (nbformat JSON); none for a probe
    root: str | None = None  # the course's lessons folder, when not the package's
    cell_timeout: float = 120
    notebook_timeout: float = 600
    check_timeout: float = 180
    output_limit: int = 5 * 1024 * 1024
    hide: list[str] = field(default_factory=list)  # folders the job must not see where a bound path holds them (gradebook, solutions)
    uid: int | None = None  # the job's own user, and its services' (set by the supervisor)
    service_uid: int | None = None
    memory_total: int | None = None  # the job's memory cgroup cap (default: sandbox.confine.JOB_MEMORY)
    workdir: str | None = None  # set by the supervisor for each attempt
    execute: bool = False  # run the notebook first (the first attempt), else only the checks left
    cpu_seconds: float | None = None  # the attempt's CPU budget (rlimit)
    probe: bool = False  # only import what grading needs, as a real job would
    confine: bool = True  # False only with --unsafe-no-sandbox; a remote worker always sets True itself

    def to_record(self) -> dict:
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict) -> "JobSpec":
        """Read back from the spec file or a broker message; unknown fields are ignored."""
        names = {f.name for f in fields(cls)}
        return cls(**{name: value for name, value in record.items() if name in names})


@dataclass
class JobResult:
    """What a job observed: the execution notes, a verdict per exercise, the confinement given, its log."""

    execution: list[dict] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    confinement: dict | None = None
    log: str | None = None  # the jobs' log, kept when the grader failed or a job died during a check
    worker: str | None = None  # the remote worker that ran it

    def grader_errors(self) -> dict[str, str]:
        return {exercise: verdict.grader_error for exercise, verdict in self.verdicts.items() if verdict.grader_error}

    def to_record(self) -> dict:
        return {"execution": self.execution, "confinement": self.confinement, "log": self.log, "worker": self.worker,
                "verdicts": {exercise: verdict.to_record() for exercise, verdict in self.verdicts.items()}}

    @classmethod
    def from_record(cls, record: Any) -> "JobResult":
        """A remote worker's result read back; malformed verdicts count as crashes (scoring.as_verdict)."""
        record = record if isinstance(record, dict) else {}
        verdicts = record.get("verdicts")
        verdicts = {exercise: Verdict.from_record(found, exercise) for exercise, found in verdicts.items()} \
            if isinstance(verdicts, dict) else {}
        execution = record.get("execution")
        return cls(execution if isinstance(execution, list) else [], verdicts, record.get("confinement"),
                   record.get("log"), record.get("worker"))
