"""An acks_late 1 s report on one of two workers, SIGKILLed with its children once the task has started, on the
RabbitMQ node (node None: on a Redis broker with a 3 s visibility_timeout swept every 0.5 s): when the other worker
starts it again."""
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

KILLED = 1.0     # seconds of work of the task whose worker is killed
VISIBILITY = 3   # the Redis visibility_timeout (kombu's default: 3600 s)
REDIS = {"visibility_timeout": VISIBILITY, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}


@dataclass
class Redelivery:
    ran: int
    state: str
    redelivered_after: float | None  # seconds from the kill until the other worker started it
    since_first_start: float | None  # seconds from the first start until the second


def redelivery(node) -> Redelivery:
    queue = helpers.queue_name("kill")
    transport = REDIS if node is None else {}  # on Redis, the lab's visibility timeout and sweep
    with helpers.experiment(node, queue, workers=2, task_acks_late=True, broker_transport_options=transport) as stack:
        result = stack.app.send_task("l08.report", ("k", KILLED), queue=queue)
        until(lambda: helpers.runs(stack, "k:start"), 20, step=0.05)
        task_id = result.id
        holder = until(lambda: [w for w in stack.workers if task_id in w.logs()], helpers.EXPECTED)[0]
        killed = time.time()
        holder.kill(group=True)
        again = until(lambda: helpers.runs(stack, "k:start")[1:], VISIBILITY + 10, step=0.05)
        if again:
            result.get(timeout=KILLED + 10)
        first, state = float(helpers.runs(stack, "k:start")[0][-1]), result.state
        del result  # no longer waited for once the stack's backend is gone
        return Redelivery(len(helpers.runs(stack, "k:start")), state,
                          float(again[0][-1]) - killed if again else None,
                          float(again[0][-1]) - first if again else None)
