"""In the grading job, a check's stack of one worker starts it without mingle: a wait for peers it cannot have.

At start-up a worker's mingle asks the other workers for their revoked task ids and clock, and waits 1 s for
answers (its log: "mingle: searching for neighbors" then, 1.04 s later, "mingle: all alone"). A check's stack
that starts a single worker has no other to ask, so the answer is always none: the check's outcome is the same
without the wait. A worker the check adds later keeps mingle (and the first still answers it); stacks that start
several workers, which could mingle with each other, are left as they are.

Installed by the job process (grader/job.py) over `CheckRun.stack` rather than written in it: every lesson's
notebooks digest the checks' modules (compiler/digest.py), so a change there re-executes all of them.
"""
from __future__ import annotations

from dataclasses import replace

from celerylab.checks.check_run import CheckRun
from celerylab.stack.spec import StackSpec

WITHOUT_MINGLE = "--without-mingle"


def without_mingle(spec: StackSpec) -> StackSpec:
    """`spec` with mingle off when it starts exactly one worker (and does not turn it off already)."""
    workers = spec.worker_specs()
    if len(workers) != 1 or WITHOUT_MINGLE in map(str, workers[0].extra_args):
        return spec
    return spec.replace(workers=(replace(workers[0], extra_args=(*workers[0].extra_args, WITHOUT_MINGLE)),))


def install() -> None:
    """From now on, in this process, `CheckRun.stack` starts a lone worker without mingle."""
    started = CheckRun.stack
    if getattr(started, "lone_worker_without_mingle", False):
        return

    def stack(self: CheckRun, spec: StackSpec | None = None, **options):
        return started(self, without_mingle((spec or StackSpec(self.module)).replace(app=self.module, **options)))

    stack.__doc__ = started.__doc__
    stack.lone_worker_without_mingle = True  # type: ignore[attr-defined]
    CheckRun.stack = stack  # type: ignore[method-assign]
