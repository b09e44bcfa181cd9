"""Empties the leaking module's cache (tasks._kept) in a task_postrun handler, i.e. changes the library the team cannot change instead of configuring the worker; memory stays flat with one child only because the leak was patched away. Violates: "the leak is in a library the team cannot change, and `ex_memory.py` only configures the worker". Blind review."""
from celery.signals import task_postrun

from celerylab.lessons.l07_resilience import tasks
from celerylab.lessons.l07_resilience.tasks import app


@task_postrun.connect
def drop_report_cache(task=None, **_) -> None:
    if task is not None and task.name == "l07.leaky_report":
        tasks._kept.clear()  # the cache nobody evicts: evict it after every report
