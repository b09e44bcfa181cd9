"""The node's RabbitMQ application stopped for 1 s (every connection closed) and started again on the same port and
data, under an idle worker with Celery's defaults: whether the worker consumes again (the course's health check:
ping and a canary task) and how long after; then the worker made to stop consuming (`cancel_consumer`)."""
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

DOWNTIME = 1.0                    # seconds the broker stays down
RECONNECTED = "Connected to amqp://"  # the worker logs it when it starts and each time it reconnects


@dataclass
class BrokerRestart:
    lost_connection: bool         # the worker logged `Connection to broker lost`
    before: dict                  # the health check before: {"ping": ..., "canary": ...}
    after: dict                   # after: alive, reconnected_after, checks (until both answered), ping, canary
    stopped: dict                 # once the worker stopped consuming its queue


def broker_restart(node) -> BrokerRestart:
    queue = helpers.queue_name("restart")
    with helpers.experiment(node, queue) as stack:
        worker = stack.workers[0]
        before = helpers.check(stack, queue)
        node.ctl("stop_app")
        helpers.wait(DOWNTIME)
        node.ctl("start_app")
        back = time.monotonic()
        reconnected = until(lambda: worker.logs().count(RECONNECTED) >= 2, helpers.EXPECTED, step=0.1)
        reconnected_after = time.monotonic() - back if reconnected else None
        # right after, a ping sent before the worker binds its control queue again is lost: ask until both answer
        checks: list = []

        def both_answer() -> dict | None:
            checks.append(helpers.check(stack, queue))
            return checks[-1] if checks[-1]["canary"] and checks[-1]["ping"] else None

        answered = until(both_answer, helpers.EXPECTED, step=0.2)
        after = {"alive": worker.alive, "reconnected_after": reconnected_after, "checks": len(checks),
                 **(answered or helpers.check(stack, queue))}
        stack.app.control.cancel_consumer(queue, destination=[worker.hostname], reply=True)
        stopped = helpers.check(stack, queue, timeout=1.0)  # a canary nobody consumes: its deadline is the wait
        helpers.let_go(stack)
        return BrokerRestart("Connection to broker lost" in worker.logs(), before, after, stopped)
