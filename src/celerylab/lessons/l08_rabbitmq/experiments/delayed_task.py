"""A reminder sent with a countdown (to a classic queue, or a quorum queue on a direct or topic exchange): where it
waits, when it runs, what happens to the worker."""
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

COUNTDOWN = 6  # seconds: twice the lab's consumer_timeout


@dataclass
class DelayedTask:
    held_by_worker: int          # countdown tasks the worker holds in memory (`inspect scheduled`) 1 s in
    levels: dict                 # native delayed delivery's exchanges and queues on the node
    ack_timeout: str
    worker_alive: bool
    ran: int
    waited: float | None         # seconds from the send until it ran
    warned_direct: bool          # the worker's warning about a quorum queue on a direct exchange
    back_in_queue: int | None


def delayed_task(node, *, queue_type: str | None = None, exchange_type: str = "direct") -> DelayedTask:
    queue = helpers.queue_name("eta")
    queues = {queue: helpers.quorum(queue, exchange_type)} if queue_type == "quorum" else None
    with helpers.experiment(node, queue, queues=queues) as stack:
        worker = stack.workers[0]
        sent = time.time()
        stack.app.send_task("l08.remind", ("r",), countdown=COUNTDOWN, queue=queue)
        helpers.wait(1.0)
        held, levels = helpers.scheduled(stack), helpers.delayed_levels(node)
        died = helpers.ack_timeout_within(worker, COUNTDOWN + 2) and helpers.exits_within(worker, helpers.EXPECTED)
        ran = None if died else until(lambda: helpers.when(stack, "r:start"), COUNTDOWN + 4)
        return DelayedTask(held, levels, helpers.ack_timeout_line(worker), worker.alive,
                           len(helpers.runs(stack, "r:start")), ran - sent if ran else None,
                           helpers.NATIVE_DELAY_WARNING in worker.logs(), helpers.ready(node, queue))
