"""When the ack goes out: the lesson app's default, and what section 5's task that keeps its message declares."""
from dataclasses import dataclass

from celery import Task

from celerylab.lessons.l01_retries import tasks_delivery as delivery
from celerylab.stack import Stack


@dataclass
class AckSettings:
    task_acks_late: bool                  # False: the ack goes out when the task starts
    task_reject_on_worker_lost: bool | None
    task_acks_late_declared: bool         # the task's own acks_late, over the app's setting
    task_reject_on_worker_lost_declared: bool | None


def ack_settings(stack: Stack, task: Task = delivery.pay_and_count) -> AckSettings:
    conf = stack.app.conf  # the lesson app's settings, as the stack's processes load them
    return AckSettings(conf.task_acks_late, conf.task_reject_on_worker_lost,
                       task.acks_late, task.reject_on_worker_lost)
