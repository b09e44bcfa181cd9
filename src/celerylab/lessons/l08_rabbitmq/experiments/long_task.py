"""An acks_late report longer than consumer_timeout: what becomes of the worker, the task and its message."""
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until
from celerylab.stack.errors import StackError

LONG = 6.0  # seconds of work: twice the lab's consumer_timeout (3 s)


@dataclass
class LongTask:
    ack_timeout: str               # the worker's critical line ("" if it never logged one)
    timeout_after: float | None    # seconds from the send to that line
    exited_after: float | None     # seconds from the send until the worker's main process exited
    worker_alive: bool
    state: str                     # the task's state in the result backend
    ran: int                       # times the task started
    finished: int                  # times it ended
    back_in_queue: int | None      # messages ready in the queue afterwards
    ran_after_restart: int | None  # starts in all once a process manager restarted the worker
    declaration_refused: str = ""  # the broker's reason when it refused the queue (the worker then exits at start)


def long_task(node, arguments: dict | None = None, **worker_settings) -> LongTask:
    queue = helpers.queue_name("long")
    queues = {queue: {"exchange": queue, "routing_key": queue, "queue_arguments": arguments}} if arguments else None
    try:
        started = helpers.experiment(node, queue, queues=queues, **worker_settings)
    except StackError as error:  # RabbitMQ 4.3 refuses x-consumer-timeout on a classic queue: nothing ran
        if not helpers.declaration_refused(error):
            raise
        return LongTask("", None, None, False, "", 0, 0, None, None, helpers.declaration_refused(error))
    with started as stack:
        worker = stack.workers[0]
        sent = time.monotonic()
        result = stack.app.send_task("l08.report", ("long", LONG), queue=queue)
        died = helpers.ack_timeout_within(worker, LONG + 2)
        timeout_after = time.monotonic() - sent if died else None
        exited = died and helpers.exits_within(worker, helpers.EXPECTED)
        exited_after = time.monotonic() - sent if exited else None
        if died:  # the task goes on in the pool's child: its end is in the run log
            until(lambda: helpers.runs(stack, "long:end"), helpers.EXPECTED)
        else:
            result.get(timeout=LONG + 10)
        seen = LongTask(helpers.ack_timeout_line(worker), timeout_after, exited_after, worker.alive, result.state,
                        len(helpers.runs(stack, "long:start")), len(helpers.runs(stack, "long:end")),
                        helpers.ready(node, queue), None)
        del result  # no longer waited for once the stack's backend is gone
        if died:  # what a process manager does next: the worker comes back, gets the message again, runs it again
            worker.restart()
            until(lambda: helpers.runs(stack, "long:start")[1:], helpers.EXPECTED)
            seen.ran_after_restart = len(helpers.runs(stack, "long:start"))
            worker.kill()
        return seen
