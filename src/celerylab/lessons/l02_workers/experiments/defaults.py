"""The installed kombu's Redis transport defaults and Celery's delivery defaults: what a worker runs without settings."""
from dataclasses import dataclass

from kombu.transport.redis import Channel

from celerylab.lessons.l02_workers import tasks


@dataclass
class Defaults:
    visibility_timeout: float        # seconds a delivered, unacknowledged message stays out of the queue
    unacked_restore_interval: float  # seconds between two calls of the sweep (kombu 5.7)
    unacked_restore_throttle: int    # calls per sweep that really scans the `unacked` hash
    task_acks_late: bool
    task_reject_on_worker_lost: bool | None
    task_retry_on_worker_lost: bool | None
    worker_soft_shutdown_timeout: float
    default_retry_delay: int         # seconds before a retry, when the task sets none

    @property
    def sweep_every(self) -> float:
        """Seconds between two sweeps that scan the `unacked` hash."""
        return self.unacked_restore_interval * self.unacked_restore_throttle


def defaults() -> Defaults:
    conf = tasks.app.conf
    return Defaults(Channel.visibility_timeout, Channel.unacked_restore_interval, Channel.unacked_restore_throttle,
                    conf.task_acks_late, conf.task_reject_on_worker_lost, conf.task_retry_on_worker_lost,
                    conf.worker_soft_shutdown_timeout, tasks.app.Task.default_retry_delay)
