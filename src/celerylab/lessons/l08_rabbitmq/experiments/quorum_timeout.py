"""What a Celery worker does when an acks_late task on a quorum queue outlives the node's consumer timeout."""

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

LONG = 6.0       # seconds of work: twice the node's consumer_timeout (3 s)
AGAIN = 3        # starts that prove the task runs again and again


def acks_late_past_the_timeout_on_a_quorum_queue(node) -> dict:
    """An `l08.report` of LONG s, acks_late, on a quorum queue of a node whose consumer_timeout is 3 s.

    ack_timeout: the worker logged the channel's 406 (the worker then stops consuming, as on a classic queue);
    consumer_cancelled: it logged the broker's basic.cancel as a lost connection (it reconnects);
    alive / runs_again: after a cancel, whether the worker is still up once the task has started AGAIN times
    (each redelivery outlives the timeout too: a loop).
    """
    queue = helpers.queue_name("release-long")
    with helpers.experiment(node, queue, queues={queue: helpers.quorum(queue)}, task_acks_late=True) as stack:
        worker = stack.workers[0]
        stack.app.send_task("l08.report", ("long", LONG), queue=queue)
        cancelled = lambda: "ConsumerCancelled" in worker.logs()  # noqa: E731
        until(lambda: helpers.ack_timeout_line(worker) or cancelled(), helpers.EXPECTED)
        seen = {"ack_timeout": bool(helpers.ack_timeout_line(worker)), "consumer_cancelled": cancelled(),
                "alive": None, "runs_again": None}
        if seen["consumer_cancelled"]:
            starts = until(lambda: len(helpers.runs(stack, "long:start")) >= AGAIN, AGAIN * LONG + helpers.EXPECTED)
            seen.update(alive=worker.alive, runs_again=bool(starts))
        worker.kill()
        return seen
