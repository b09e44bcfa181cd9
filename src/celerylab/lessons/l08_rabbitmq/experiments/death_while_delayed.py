"""A 3 s reminder (native delayed delivery on a quorum queue behind a topic exchange, or a classic queue) whose
worker's process group gets SIGKILL or SIGTERM 1 s after the send and stays down until half a second past the
reminder's time: whether it ran while no worker was up, whether and when it runs once one is back."""
import signal
import time
from dataclasses import dataclass

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

COUNTDOWN = 3      # the reminder's countdown
DOWN_PAST = 0.5    # seconds past the reminder's time the worker stays down


@dataclass
class Death:
    held_by_worker: int
    ran_while_down: int
    in_queue_while_down: int | None  # a classic queue's ready count (a quorum queue's lags behind: not read)
    warm_shutdown: bool              # the worker logged `Warm shutdown` (SIGTERM)
    ran: int
    ran_after_back: float | None     # seconds from the restart (its start-up included) until it ran
    late: float | None               # seconds past its time
    ack_timeout: str
    worker_alive: bool


def death_while_delayed(node, *, native: bool, sig: str) -> Death:
    queue = helpers.queue_name("death")
    queues = {queue: helpers.quorum(queue, "topic")} if native else None
    with helpers.experiment(node, queue, queues=queues) as stack:
        worker = stack.workers[0]
        sent = time.time()
        stack.app.send_task("l08.remind", ("d",), countdown=COUNTDOWN, queue=queue)
        helpers.wait(1.0)
        held = helpers.scheduled(stack)
        worker.kill(getattr(signal, sig), group=True)
        helpers.wait(max(0.0, sent + COUNTDOWN + DOWN_PAST - time.time()))  # down past the reminder's time
        ran_while_down = len(helpers.runs(stack, "d:start"))
        in_queue = None if native else helpers.ready(node, queue)
        warm = "Warm shutdown" in worker.logs()
        back = time.time()
        worker.restart()
        ran = until(lambda: helpers.when(stack, "d:start"), 20)
        helpers.wait(0.5)  # a second copy would start right behind the first (a requeued message comes back in ms)
        return Death(held, ran_while_down, in_queue, warm, len(helpers.runs(stack, "d:start")),
                     ran - back if ran else None, ran - (sent + COUNTDOWN) if ran else None,
                     helpers.ack_timeout_line(worker), worker.alive)
