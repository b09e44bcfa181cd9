"""A base task class (task_cls) beside the "*" annotation, on fresh apps: defaults the decorator can still override."""
from celery import Task

from celerylab.lessons.l03_silent_defects.experiments.annotation_table import (
    EVERY_TASK,
    AnnotationTable,
    options_under,
)


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60


def base_class() -> AnnotationTable:
    return AnnotationTable({"task_cls=Defaults": options_under(task_cls=Defaults),
                            "task_annotations '*'": options_under({"task_annotations": EVERY_TASK})})
