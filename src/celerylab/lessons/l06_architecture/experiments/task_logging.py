"""One task logs three lines: through get_task_logger, through a plain logger, and through it with the notes' extra=."""
import re
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import tasks
from celerylab.stack import Stack


@dataclass
class TaskLogging:
    task_id: str
    lines: list[str]  # the worker's log lines of the task, after the timestamp (pool process numbers as N)


def task_logging(stack: Stack, file_id: int = 42) -> TaskLogging:
    logged = tasks.import_file.delay(file_id)
    logged.get(timeout=10)
    worker = next(w for w in stack.workers if w.spec.queues == ("default",))
    worker.wait_for_log(rf"importing file {file_id} \(extra\)", timeout=10)
    lines = [re.sub(r"ForkPoolWorker-\d+", "ForkPoolWorker-N", line.split(": ", 1)[1])
             for line in worker.logs.splitlines() if f"importing file {file_id}" in line]
    return TaskLogging(logged.id, lines)
