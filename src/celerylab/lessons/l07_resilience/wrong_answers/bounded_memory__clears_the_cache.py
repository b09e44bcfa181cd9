"""Empties the task module's cache after every task instead of limiting the worker: memory stays flat in one child, but the reports the cache keeps are gone. Violates: "the leak is in a library the team cannot change, and `ex_memory.py` only configures the worker"."""
from celery.signals import task_postrun

from celerylab.lessons.l07_resilience import tasks
from celerylab.lessons.l07_resilience.tasks import app  # noqa: F401 (the worker loads `app`)


@task_postrun.connect
def forget_the_reports(**_):
    tasks._kept.clear()
