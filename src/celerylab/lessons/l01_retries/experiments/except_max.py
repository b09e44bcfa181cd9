"""The notes' manual retry: does its `except MaxRetriesExceededError` ever run, with and without `exc=`?"""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_options as options
from celerylab.stack import Stack


@dataclass
class ExceptMax:
    rows: list[dict]  # one per task: state, error, runs, ..., except_ran (rows its except branch wrote)


def except_max(stack: Stack) -> ExceptMax:
    sent = {"notes_manual_retry": options.notes_manual_retry.delay(),  # self.retry(exc=error)
            "retry_without_exc": options.retry_without_exc.delay()}    # self.retry()
    rows = []
    for name, result in sent.items():
        row = {"task": name, **helpers.outcome(stack, result)}
        row["except_ran"] = helpers.count(stack, "SELECT COUNT(*) FROM notes_log WHERE task_id = ?", (result.id,))
        rows.append(row)
    return ExceptMax(rows)
