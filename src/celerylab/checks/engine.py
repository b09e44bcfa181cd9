"""The check engine: checks register per exercise, record expected/observed criteria, and yield a verdict."""
from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from celerylab.course import Exercise, find_exercise
from celerylab.i18n import LANGS, catalog, get_lang, t

CheckFunction = Callable[["CheckRun"], None]
REGISTRY: dict[str, CheckFunction] = {}


def exercise(exercise_id: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register the decorated function as the check of `exercise_id` (e.g. ``l01.welcome_once``)."""
    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY[exercise_id] = function
        return function
    return register


@dataclass
class Criterion:
    """One thing a check verified: a message key, what was expected and what the stack observed."""

    key: str
    expected: Any
    observed: Any
    passed: bool
    hidden: bool = False
    values: dict = field(default_factory=dict)
    cause: str | None = None  # what made it fail, as observed (e.g. the task's exception)

    def label(self, lang: str) -> str:
        """The criterion's text: a catalog key, or a ``{pt, en}`` dict given by the check itself."""
        if isinstance(self.key, dict):
            return str(self.key.get(lang) or next(iter(self.key.values()))).format(**self.values)
        return t(self.key, lang=lang, **self.values) if self.key in catalog() else str(self.key)

    def render(self, lang: str) -> str:
        mark = "✔" if self.passed else "✘"
        label = self.label(lang)
        line = t("check.criterion", lang=lang, mark=mark, label=label,
                 expected=self.expected, observed=self.observed)
        if self.cause and not self.passed:
            line += "\n      " + t("check.cause", lang=lang, cause=self.cause)
        return line


@dataclass
class Verdict:
    """The outcome of one check run; ``passed`` only when every criterion passed and nothing crashed."""

    exercise_id: str
    criteria: list[Criterion] = field(default_factory=list)
    error: str | None = None
    missing_module: bool = False  # the answer cell was never run: not an attempt
    grader_error: str | None = None  # the checker itself could not run (see grader_fault): not the learner's
    deferred: int = 0  # hidden criteria this run left to grading (other inputs of stated requirements)

    @property
    def passed(self) -> bool:
        return (self.error is None and self.grader_error is None and bool(self.criteria)
                and all(c.passed for c in self.criteria))

    def reasons(self, lang: str) -> list[str]:
        """Why a failure failed when no visible line says so: hidden criteria, or nothing checked at all."""
        if self.passed or self.error:
            return []
        hidden_failed = sum(1 for c in self.criteria if c.hidden and not c.passed)
        if hidden_failed:
            return [t("check.hidden_failed", lang=lang, count=hidden_failed)]
        if not self.criteria:
            return [t("check.nothing_checked", lang=lang)]
        return []

    def visible(self) -> list[Criterion]:
        return [c for c in self.criteria if not c.hidden]

    def title(self, lang: str) -> str:
        """❌, or ✅ with the count of criteria shown and of the hidden ones the grader checks (run here or not)."""
        if not self.passed:
            return t("check.failed", lang=lang, exercise=self.exercise_id)
        more = self.deferred + sum(1 for c in self.criteria if c.hidden)
        key = {0: "check.passed", 1: "check.passed_one_more"}.get(more, "check.passed_more")
        return t(key, lang=lang, exercise=self.exercise_id, count=len(self.visible()), more=more)

    def render(self, lang: str | None = None, hint: str | None = None) -> str:
        lang = lang or get_lang()
        title = self.title(lang)
        lines = [title, *("  " + c.render(lang) for c in self.visible())]
        if self.grader_error:
            lines.append("  " + t("check.grader_error", lang=lang, error=self.grader_error))
        if self.error:
            lines.append("  " + t("check.error", lang=lang, error=self.error))
        lines += ["  " + reason for reason in self.reasons(lang)]
        if hint and not self.passed:
            lines.append("  " + t("check.hint", lang=lang, hint=hint))
        return "\n".join(lines)

    def to_dict(self, include_hidden: bool = False) -> dict:
        criteria = self.criteria if include_hidden else self.visible()
        return {"exercise": self.exercise_id, "passed": self.passed, "error": self.error,
                "grader_error": self.grader_error,
                "criteria": [{"key": c.key, "expected": repr(c.expected), "observed": repr(c.observed),
                              "passed": c.passed, "hidden": c.hidden, "cause": c.cause,
                              "labels": {lang: c.label(lang) for lang in LANGS}} for c in criteria]}


class CheckRun:
    """What a check function receives: the learner's module and folder, a stack starter, expect()."""

    def __init__(self, info: Exercise, workdir: Path, include_hidden: bool = False):
        self.info = info
        self.workdir = Path(workdir).resolve()
        self.module = info.module
        self.include_hidden = include_hidden
        self.verdict = Verdict(info.id)

    def stack(self, **options):
        """A live stack whose workers load the learner's module.

        This process talks to the stack through the lesson's own app, so the learner's
        module runs only in the workers, never where the verdict is decided (lessons
        outside the package fall back to importing it here).
        """
        from celerylab.stack import Stack

        sys.modules.pop(self.module, None)
        importlib.invalidate_caches()
        options.setdefault("pythonpath", (self.workdir,))
        options.setdefault("client", self.info.app_module)
        return Stack.start(self.module, **options)

    def graded(self, criteria: int) -> bool:
        """Whether to run the next `criteria` hidden criteria (at grading, in course builds); else count them as left to grading.

        A hidden criterion only varies the inputs of a requirement the statement lists (the same key as a visible one).
        """
        if not self.include_hidden:
            self.verdict.deferred += criteria
        return self.include_hidden

    def expect(self, key: str, expected: Any, observed: Any, *, hidden: bool = False,
               passed: bool | None = None, cause: str | BaseException | None = None, **values: Any) -> bool:
        """Record a criterion; `passed` defaults to ``expected == observed``; `cause` says why it failed."""
        ok = bool(expected == observed) if passed is None else bool(passed)
        if isinstance(cause, BaseException):
            from celerylab.checks.diagnose import describe_exception

            cause = describe_exception(cause)
        self.verdict.criteria.append(Criterion(key, expected, observed, ok, hidden, values, cause or None))
        return ok

    def expect_state(self, key: str, expected: str, result, *, hidden: bool = False, **values: Any) -> bool:
        """A task result's state as a criterion, with the task's exception as the cause when it failed."""
        state = result.state
        cause = result.result if isinstance(result.result, BaseException) else None
        return self.expect(key, expected, state, hidden=hidden, cause=cause, **values)




def load_checks(info: Exercise) -> CheckFunction:
    """Import the lesson's checks module (from the package, or by path for a course root elsewhere)."""
    if info.id not in REGISTRY:
        if info.in_package:
            importlib.import_module(info.checks_module)
        elif info.checks_module not in sys.modules:
            spec = importlib.util.spec_from_file_location(info.checks_module, info.checks_path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[info.checks_module] = module
            spec.loader.exec_module(module)
    return REGISTRY[info.id]


def grader_fault(error: BaseException, workdir: Path, module: str) -> bool:
    """Whether `error` is the checker's own failure, not the learner's: an import of a module other than the
    learner's, issued from code outside the learner's folder (a missing dependency, an unreadable install).
    Anything else a check raises may come from the learner's code and stays the learner's."""
    if not isinstance(error, ImportError) or (error.name or "").split(".")[0] == module:
        return False
    frames = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.startswith("<frozen")]
    return not any(Path(name).resolve().is_relative_to(workdir) for name in frames if name)


def run_check(exercise_id: str, workdir: str | Path = ".", include_hidden: bool = False,
              root: str | Path | None = None, notebook: str | Path | None = None) -> Verdict:
    """Run one exercise's check against the learner's files in `workdir`; never raises for learner faults.

    What keeps the check from running at all (its exercise or checks module cannot be loaded, an import
    of the grader's own fails) is the verdict's ``grader_error``, never a learner's failure."""
    try:
        info = find_exercise(exercise_id, root)
    except Exception as error:
        return Verdict(exercise_id, grader_error=f"{type(error).__name__}: {error}")
    run = CheckRun(info, Path(workdir), include_hidden)
    if not (run.workdir / f"{info.module}.py").exists():
        run.verdict.error = t("check.no_module", module=f"{info.module}.py", folder=run.workdir)
        run.verdict.missing_module = True
        return run.verdict
    from celerylab.checks.diagnose import syntax_problem

    run.verdict.error = syntax_problem(run.workdir / f"{info.module}.py", notebook)
    if run.verdict.error:
        return run.verdict
    try:
        function = load_checks(info)
    except Exception as error:
        run.verdict.grader_error = "".join(traceback.format_exception_only(type(error), error)).strip()
        return run.verdict
    sys.path.append(str(run.workdir))  # last: a learner's json.py cannot shadow what the checker imports
    try:
        function(run)
    except Exception as error:  # the learner's code may fail in any way: report, don't crash
        from celerylab.stack.errors import StackError

        detail = str(error) if isinstance(error, StackError) else "".join(
            traceback.format_exception_only(type(error), error)).strip()
        if grader_fault(error, run.workdir, info.module):
            run.verdict.grader_error = detail
        else:
            run.verdict.error = detail
    finally:
        if str(run.workdir) in sys.path:
            sys.path.remove(str(run.workdir))
    return run.verdict
