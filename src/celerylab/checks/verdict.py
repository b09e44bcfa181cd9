"""The verdict of one check, the one value carried from the check to the gradebook: criteria, or why there are none.

A check builds it (``CheckRun.expect``); a grading job writes it to its pipe once (`to_record`) and the
grader reads it back once (`from_record`), deciding `passed` from the criteria, never from a flag the
job reported; the gradebook stores the same record beside the points it scored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from celerylab.i18n import LANGS, catalog, t


class Printed(str):
    """A value as the job printed it (its ``repr``), read back from a record: printed again as is."""

    def __repr__(self) -> str:
        return str(self)


@dataclass
class Criterion:
    """One thing a check verified: a message key, what was expected and what the stack observed."""

    key: Any  # a catalog key, or a ``{pt, en}`` text given by the check itself
    expected: Any
    observed: Any
    passed: bool
    hidden: bool = False
    values: dict = field(default_factory=dict)
    cause: str | None = None  # what made it fail, as observed (e.g. the task's exception)
    labels: dict | None = None  # the label in each language, once recorded (values already filled in)

    def label(self, lang: str) -> str:
        """The criterion's text: as recorded, else from its catalog key or its own ``{pt, en}`` text."""
        if self.labels is not None:
            return self.labels.get(lang) or str(self.key)
        if isinstance(self.key, dict):
            return str(self.key.get(lang) or next(iter(self.key.values()))).format(**self.values)
        return t(self.key, lang=lang, **self.values) if self.key in catalog() else str(self.key)

    def to_record(self) -> dict:
        return {"key": self.key, "expected": repr(self.expected), "observed": repr(self.observed),
                "passed": self.passed, "hidden": self.hidden, "cause": self.cause,
                "labels": {lang: self.label(lang) for lang in LANGS}}

    @classmethod
    def from_record(cls, record: dict) -> "Criterion":
        """Read back; only ``passed: true`` passes."""
        labels = record.get("labels")
        return cls(record.get("key"), Printed(record.get("expected")), Printed(record.get("observed")),
                   record.get("passed") is True, bool(record.get("hidden")), {}, record.get("cause"),
                   labels if isinstance(labels, dict) else {})


@dataclass
class Verdict:
    """The outcome of one check; ``passed`` only when every criterion passed and nothing went wrong."""

    exercise_id: str
    criteria: list[Criterion] = field(default_factory=list)
    error: str | None = None
    missing_module: bool = False  # the answer cell was never run: not an attempt
    grader_error: str | None = None  # the checker itself could not run (see grader_fault): not the learner's
    deferred: int = 0  # hidden criteria this run left to grading (other inputs of stated requirements)
    crashed: bool = False  # the grading job died (or ran out of time) while this check ran
    tampered: bool = False  # the learner's code patched the checker while this check ran

    @property
    def passed(self) -> bool:
        return (self.decided and self.grader_error is None
                and all(criterion.passed is True for criterion in self.criteria))

    @property
    def decided(self) -> bool:
        """Whether the criteria say anything: recorded, and nothing (error, crash, tampering) voids them."""
        return self.error is None and not (self.crashed or self.tampered) and bool(self.criteria)

    def visible(self) -> list[Criterion]:
        return [c for c in self.criteria if not c.hidden]

    def hidden_failed(self) -> int:
        return sum(1 for c in self.criteria if c.hidden and not c.passed)

    @classmethod
    def lost(cls, exercise: str) -> "Verdict":
        """The job died (or ran out of time) while this exercise's check ran."""
        return cls(exercise, crashed=True)

    @classmethod
    def grader_failure(cls, exercise: str, why: str) -> "Verdict":
        """The check could not run because of the grader (the job died before it, or grader code crashed)."""
        return cls(exercise, grader_error=why)

    def to_record(self, include_hidden: bool = True) -> dict:
        """The JSON form a grading job writes to its pipe (hidden criteria left out for a learner's copy)."""
        criteria = self.criteria if include_hidden else self.visible()
        return {"exercise": self.exercise_id, "criteria": [c.to_record() for c in criteria], "error": self.error,
                "crashed": self.crashed, "tampered": self.tampered, "grader_error": self.grader_error}

    @classmethod
    def from_record(cls, record: Any, exercise: str) -> "Verdict":
        """Read back from a job's JSON line; anything malformed counts as a crash, never as a pass."""
        if not isinstance(record, dict):
            return cls.lost(exercise)
        criteria = record.get("criteria")
        criteria = [Criterion.from_record(c) for c in criteria if isinstance(c, dict)] \
            if isinstance(criteria, list) else []
        error, grader_error = record.get("error"), record.get("grader_error")
        return cls(exercise, criteria, str(error) if error else None,
                   grader_error=str(grader_error) if grader_error else None,
                   crashed=bool(record.get("crashed")), tampered=bool(record.get("tampered")))
