"""The incident's two keys: what the app's configuration stores and hands back, and what its task really has."""
from dataclasses import dataclass

from celery import Celery, Task

from celerylab.lessons.l03_silent_defects import tasks


@dataclass
class ConfKeys:
    conf_task_max_retries: int           # read back from app.conf
    conf_task_default_retry_delay: int
    task_max_retries: int                # the attributes retry() reads
    task_default_retry_delay: int


def conf_keys(app: Celery = tasks.app, task: Task = tasks.send_invoice) -> ConfKeys:
    # the lesson's app ran app.conf.update(task_max_retries=3, task_default_retry_delay=60)
    return ConfKeys(app.conf.task_max_retries, app.conf.task_default_retry_delay,
                    task.max_retries, task.default_retry_delay)
