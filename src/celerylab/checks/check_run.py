"""A check's run: what a check function receives (the learner's module, a stack, ``expect``) and `run_check`."""
from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path
from typing import Any

from celerylab.checks.registry import load_checks
from celerylab.checks.verdict import Criterion, Verdict
from celerylab.course import Exercise
from celerylab.i18n import t


class Decided(BaseException):
    """Raised by `expect` at the first failed criterion of a run that needs only the verdict (the course's
    self-check on its wrong answers): the check stops there and its stacks close. A BaseException, so a
    check's own ``except Exception`` cannot swallow it."""


class CheckRun:
    """What a check function receives: the learner's module and folder, a stack starter, expect()."""

    def __init__(self, info: Exercise, workdir: Path, include_hidden: bool = False,
                 stop_at_first_failure: bool = False):
        self.info = info
        self.workdir = Path(workdir).resolve()
        self.module = info.module
        self.include_hidden = include_hidden
        self.stop_at_first_failure = stop_at_first_failure
        self.verdict = Verdict(info.id)

    def stack(self, spec=None, **options):
        """A live stack whose workers load the learner's module: `spec` (a lesson's StackSpec, its app replaced)
        with `options` over it, or the options alone.

        This process talks to the stack through the lesson's own app, so the learner's
        module runs only in the workers, never where the verdict is decided (lessons
        outside the package fall back to importing it here).
        """
        from celerylab.stack import Stack, StackSpec

        sys.modules.pop(self.module, None)
        importlib.invalidate_caches()
        spec = (spec or StackSpec(self.module)).replace(app=self.module, **options)
        return Stack.start(spec.replace(pythonpath=spec.pythonpath or (self.workdir,),
                                        client=spec.client or self.info.app_module))

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
        if not ok and self.stop_at_first_failure:
            raise Decided
        return ok

    def expect_state(self, key: str, expected: str, result, *, hidden: bool = False, **values: Any) -> bool:
        """A task result's state as a criterion, with the task's exception as the cause when it failed."""
        state = result.state
        cause = result.result if isinstance(result.result, BaseException) else None
        return self.expect(key, expected, state, hidden=hidden, cause=cause, **values)


def grader_fault(error: BaseException, workdir: Path, module: str) -> bool:
    """Whether `error` is the checker's own failure, not the learner's, raised from code outside the learner's
    folder: an import of a module other than the learner's (a missing dependency, an unreadable install), or a
    stack's service (its database, its broker) that could not start on this machine.
    Anything else a check raises may come from the learner's code and stays the learner's."""
    from celerylab.stack.errors import ServiceError

    service = isinstance(error, ServiceError)
    if not service and (not isinstance(error, ImportError) or (error.name or "").split(".")[0] == module):
        return False
    frames = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.startswith("<frozen")]
    return not any(Path(name).resolve().is_relative_to(workdir) for name in frames if name)


def run_check(info: Exercise, workdir: str | Path = ".", include_hidden: bool = False,
              notebook: str | Path | None = None, stop_at_first_failure: bool = False) -> Verdict:
    """Run one exercise's check against the learner's files in `workdir`; never raises for learner faults.

    What keeps the check from running at all (its checks module cannot be loaded, an import of the
    grader's own fails) is the verdict's ``grader_error``, never a learner's failure.
    `stop_at_first_failure` ends the check at its first failed criterion (a verdict without the feedback
    on the rest: for the course's self-check, never for a learner)."""
    run = CheckRun(info, Path(workdir), include_hidden, stop_at_first_failure)
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
    except Decided:
        pass
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
