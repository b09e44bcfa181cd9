"""Runs the garbage collector after every task: the leaked cache is still referenced, so nothing is freed. Violates: "the peak growth ... stays within 75 MB"."""
import gc

from celery.signals import task_postrun

from celerylab.lessons.l07_resilience.tasks import app  # noqa: F401 (the worker loads `app`)


@task_postrun.connect
def collect(**_) -> None:
    gc.collect()
