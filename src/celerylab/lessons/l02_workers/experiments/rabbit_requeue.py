"""Two workers on RabbitMQ, acks_late and the default ack, killed by SIGKILL mid-task: what comes back, and when."""
import time
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack


@dataclass
class RabbitRequeue:
    back_in_queue: bool     # the acks_late message was ready in its queue again within 5 s
    back_after: float       # seconds from the kill until then
    early_in_queue: int     # messages ready in the default-ack worker's queue
    late_starts: list[dict]  # each start of the acks_late task, once the workers restarted
    killed: float           # when the workers were killed (time.time())
    version: str            # the RabbitMQ server's version


def rabbit_requeue(lab: Stack) -> RabbitRequeue:
    tag = lab.id + str(int(time.time()))
    queues = {"late": f"l02-late-{tag}", "early": f"l02-early-{tag}"}
    with helpers.experiment(lab, helpers.worker(queues["late"], task_acks_late=True),
                            helpers.worker(queues["early"]), settings={"broker_url": helpers.RABBITMQ_URL}) as s:
        for name, queue in queues.items():
            tasks.work.apply_async((f"rabbit-{name}", 2), queue=queue)
            runs.wait(s, f"rabbit-{name}")
        killed = time.time()
        for worker in s.workers:
            worker.kill()                      # SIGKILL, mid-task
        back = helpers.wait_for(lambda: helpers.rabbitmq_ready(s, queues["late"]) == 1, timeout=5)
        back_after = time.time() - killed
        lost = helpers.rabbitmq_ready(s, queues["early"])
        helpers.restart_all(s.workers)
        again = runs.wait(s, "rabbit-late", count=2, timeout=10)
        helpers.rabbitmq_delete(s, queues.values())
        return RabbitRequeue(back, back_after, lost, again, killed, helpers.rabbitmq_version(s))
