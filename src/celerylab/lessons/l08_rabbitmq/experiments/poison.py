"""An `l08.poison` (it kills the pool process that runs it) on an acks_late worker that rejects on worker lost, on a
classic queue (watched until it has started 4 times) or a quorum queue with `arguments` (watched until every run's
death is handled, every delivery started and the queue holds nothing, and still so helpers.SETTLE s later)."""
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

LOOPING = 4  # starts that prove a poison message loops: one more than a delivery limit of 2 allows


@dataclass
class Poison:
    runs: int
    looping: bool            # it started LOOPING times
    in_queue: int | None
    worker_alive: bool
    timed_out: bool          # the worker logged the ack timeout


def poison(node, *, arguments: dict | None = None) -> Poison:
    queue = helpers.queue_name("poison")
    queues = {queue: helpers.quorum(queue, **arguments)} if arguments is not None else None
    with helpers.experiment(node, queue, queues=queues, task_acks_late=True, task_reject_on_worker_lost=True) as stack:
        worker = stack.workers[0]
        stack.app.send_task("l08.poison", ("p",), queue=queue)
        started = lambda: len(helpers.runs(stack, "p:start"))  # noqa: E731
        if arguments is None:
            until(lambda: started() >= LOOPING, 40, step=0.2)
        else:
            received = lambda: helpers.received(worker, "l08.poison")  # noqa: E731
            helpers.settle(lambda: started() and helpers.deaths_handled(worker) >= started() == received()
                           and helpers.ready(node, queue) == 0, lambda: (started(), received()), timeout=40)
        return Poison(started(), started() >= LOOPING, helpers.ready(node, queue), worker.alive,
                      bool(helpers.ack_timeout_line(worker)))
