"""A task that ignores its result (task_ignore_result=True): what a call with and without ignore_result stores."""
from dataclasses import dataclass

from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class CallIgnoreResult:
    states: dict[str, str]  # "ignore_result=False" / "no option" -> the state read once the task succeeded


def call_ignore_result(stack: Stack) -> CallIgnoreResult:
    quiet = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("quiet",),
                                        settings={"task_ignore_result": True}))
    since = quiet.log_offset()
    asked = stack.app.send_task("l04.double", (2,), queue="quiet", ignore_result=False)
    plain = stack.app.send_task("l04.double", (3,), queue="quiet")
    helpers.wait_succeeded(quiet, [asked.id, plain.id], since)  # from the worker's log: no result to wait on
    states = {"ignore_result=False": AsyncResult(asked.id, app=stack.app).state,
              "no option": AsyncResult(plain.id, app=stack.app).state}
    quiet.terminate()  # the stack keeps the workers it had
    return CallIgnoreResult(states)
