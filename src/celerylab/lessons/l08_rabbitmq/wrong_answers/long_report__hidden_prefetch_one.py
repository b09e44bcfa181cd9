"""Lowers the real prefetch to 1 on the channel behind Celery's back (inspect stats still says 4) so 2.5 s parts never wait in the worker. Violates: "one prefork worker, concurrency 1, default prefetch". Blind review.
"""
from celery import bootsteps

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

# Cost: a report becomes several messages of at most PART seconds (a broker round trip each, reports interleave),
# a crash redoes the part that was running, and the worker takes one message at a time (less throughput).

PART = 2.5  # under the 3 s timeout, since no message waits in the worker


class OneMessageAtATime(bootsteps.StartStopStep):
    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, c):
        real = c.qos.callback  # what Celery calls to send basic.qos; its own value (and inspect stats) stays 4
        c.qos.callback = lambda prefetch_count=None: real(1)
        c.qos.set(1)


app.steps["consumer"].add(OneMessageAtATime)


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    done = part * PART
    s = min(PART, seconds - done)
    crunch(label, part, s)
    if done + s < seconds - 1e-9:
        self.app.send_task("ex.report", args=(label, seconds, part + 1))
