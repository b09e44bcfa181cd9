"""A 6 s report with the default early acknowledgement, and a short one sent right after it, on one worker
(prefetch 1): which message the channel's close takes down."""
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

LONG = 6.0  # seconds of the first report: twice the lab's consumer_timeout


@dataclass
class EarlyAck:
    died: bool              # the worker logged the ack timeout and exited
    first: str              # the long report's state
    second: str             # the short report's state
    second_ran: int
    back_in_queue: int | None


def early_ack_second(node) -> EarlyAck:
    queue = helpers.queue_name("early")
    with helpers.experiment(node, queue, worker_prefetch_multiplier=1) as stack:
        worker = stack.workers[0]
        first = stack.app.send_task("l08.report", ("first", LONG), queue=queue)
        second = stack.app.send_task("l08.report", ("second", 0.1), queue=queue)
        died = helpers.ack_timeout_within(worker, LONG + 2) and helpers.exits_within(worker, helpers.EXPECTED)
        until(lambda: helpers.runs(stack, "first:end"), helpers.EXPECTED)
        seen = EarlyAck(died, first.state, second.state, len(helpers.runs(stack, "second:start")),
                        helpers.ready(node, queue))
        del first, second  # no longer waited for once the stack's backend is gone
        return seen
