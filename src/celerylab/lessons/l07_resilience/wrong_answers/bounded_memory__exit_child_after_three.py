"""Kills its own child (os._exit in task_postrun) after its third task instead of configuring the worker: the worker sees a child die under a task (WorkerLostError) on every third task. Violates: "the six tasks finish successfully, with no child dying under a task". Blind review."""
import os

from celery import signals

from celerylab.lessons.l07_resilience.tasks import app

_done = 0


@signals.task_postrun.connect
def _recycle(**_):
    global _done
    _done += 1
    if _done >= 3:
        os._exit(0)
