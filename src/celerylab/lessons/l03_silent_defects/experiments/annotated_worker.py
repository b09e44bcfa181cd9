"""A second worker started with the notes' fix, a "*" task annotation: the wait of l03.welcome, which declares 30 s."""
from celerylab.lessons.l03_silent_defects.experiments.annotation_table import EVERY_TASK
from celerylab.lessons.l03_silent_defects.experiments.retry_wait import RetryWait, retry_wait
from celerylab.stack import Stack, WorkerSpec


def annotated_worker(stack: Stack, annotations: dict = EVERY_TASK) -> RetryWait:
    annotated = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("annotated",),
                                            settings={"task_annotations": annotations}))
    return retry_wait(stack, annotated, "l03.welcome", queue="annotated")
