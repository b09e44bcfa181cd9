"""`broker_channel_error_retry=True`: the worker treats the 406 as a lost connection and reconnects instead of
exiting. A 6 s countdown reminder, or a 6 s acks_late report, each on a worker of its own: what runs, how many
times, whether the worker ever exits."""
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

COUNTDOWN = 6   # the reminder's countdown: twice the lab's consumer_timeout
LONG = 6.0      # seconds of the report's work, as long
WATCH = 20.0    # seconds the report is watched


@dataclass
class ChannelErrorRetry:
    ack_timeouts: int        # 406s the worker logged (and recovered from)
    worker_alive: bool       # its main process never exited
    ran: int                 # times the task started
    finished: int            # times it ended
    late: float | None       # the reminder: seconds past its time when it ran


def channel_error_retry(node, *, acks_late: bool) -> ChannelErrorRetry:
    queue = helpers.queue_name("retry")
    with helpers.experiment(node, queue, broker_channel_error_retry=True, task_acks_late=acks_late) as stack:
        worker, sent = stack.workers[0], time.time()
        if acks_late:
            stack.app.send_task("l08.report", ("r", LONG), queue=queue)
            helpers.wait(WATCH)
        else:
            stack.app.send_task("l08.remind", ("r",), countdown=COUNTDOWN, queue=queue)
            until(lambda: helpers.when(stack, "r:start"), COUNTDOWN + helpers.EXPECTED)
            helpers.wait(COUNTDOWN)  # a second run would come by now
        ran = helpers.when(stack, "r:start")
        return ChannelErrorRetry(worker.logs().count("PRECONDITION_FAILED - delivery acknowledgement"),
                                 worker.alive, len(helpers.runs(stack, "r:start")), len(helpers.runs(stack, "r:end")),
                                 None if acks_late or ran is None else ran - (sent + COUNTDOWN))
