"""result_failure_expires (new in Celery 5.7) on a worker: the TTL of a failure's result key beside a success's."""
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class FailureTtl:
    states: list[str]     # the failing task's, the succeeding one's
    ttls: dict[str, int]  # "failure", "success" -> seconds their result keys have left


def failure_ttl(stack: Stack) -> FailureTtl:
    failed = stack.app.send_task("l07.echo", ())  # no argument: TypeError in the worker
    done = stack.app.send_task("l07.echo", ("fine",))
    failed.get(timeout=10, propagate=False)
    done.get(timeout=10)
    client = helpers.keys(stack)
    ttls = {name: client.ttl(f"{stack.namespace}celery-task-meta-{result.id}")
            for name, result in (("failure", failed), ("success", done))}
    client.close()
    return FailureTtl([failed.state, done.state], ttls)
