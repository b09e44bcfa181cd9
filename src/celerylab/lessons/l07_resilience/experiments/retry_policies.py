"""The two retry policies a send runs into, as a fresh producer app has them: publishing's and the result backend's."""
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class RetryPolicies:
    publish_policy: dict   # task_publish_retry_policy
    publish_wait: float    # seconds it sleeps in all before raising
    backend_policy: dict   # the Redis result backend's reconnect policy
    backend_wait: float


def retry_policies(stack: Stack) -> RetryPolicies:
    web = helpers.producer_app(stack)
    publish, backend = web.conf.task_publish_retry_policy, web.backend.retry_policy
    return RetryPolicies(publish, helpers.retry_wait(publish), backend, helpers.retry_wait(backend))
