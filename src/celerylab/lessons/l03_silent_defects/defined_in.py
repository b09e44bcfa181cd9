"""A task of the check's, loaded onto the learner's worker (--include): the module that defines a registered task."""
from __future__ import annotations

from celery import shared_task


@shared_task(bind=True, name="l03.defined_in")
def defined_in(self, name: str) -> str | None:
    task = self.app.tasks.get(name)
    return None if task is None else task.run.__module__
