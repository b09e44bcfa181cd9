"""A chord with a failing chunk and an errback: a plain `(request, exc, traceback)` one, and the same with bind=True."""
from dataclasses import dataclass

from celery import chord, group

from celerylab.appdb import execute
from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack

ERRBACKS = {"plain": tasks.chord_failed, "bound": tasks.chord_failed_bound}


@dataclass
class Errback:
    chord_state: str
    chord_result: str        # the type of what the chord's result holds
    chord_repr: str          # and its repr
    errback_got: list[str]   # the error types this errback wrote to the errbacks table (empty: it never ran)


def chord_errbacks(stack: Stack) -> dict[str, Errback]:
    def broken(errback):
        return chord(group(tasks.process_chunk.s(i) for i in (1, 2, 13, 4)), tasks.consolidate.s()).on_error(
            errback.s()).apply_async()

    failed = {kind: broken(errback) for kind, errback in ERRBACKS.items()}
    helpers.until(lambda: all(result.state != "PENDING" for result in failed.values()))
    helpers.until(lambda: execute(stack.db(), "SELECT count(*) FROM errbacks WHERE kind = 'plain'").fetchone()[0] >= 1)
    rows = execute(stack.db(), "SELECT kind, error FROM errbacks").fetchall()  # what each errback wrote
    return {kind: Errback(result.state, type(result.result).__name__, repr(result.result),
                          sorted({error.split(":")[0] for k, error in rows if k == kind}))
            for kind, result in failed.items()}
