"""Bigger messages into a memory alarm: a burst of BURST tasks of 10 KB each from a publisher without confirms while
the alarm lasts ALARMED s: what the publisher saw, how many messages the queue holds once the alarm is lifted."""
import threading
from dataclasses import dataclass

from celery import Celery

from celerylab.lessons.l08_rabbitmq import helpers

BURST = 2000            # tasks in the burst
PAYLOAD = "x" * 10_000  # 10 KB of arguments each
ALARMED = 6.0           # seconds the alarm lasts


@dataclass
class Burst:
    sent: int               # send_task calls that returned without an error
    raised: str | None      # the first error a call raised
    in_queue_after: int     # messages in the queue once the alarm is lifted and its count is still


def alarm_burst(node) -> Burst:
    queue = helpers.queue_name("burst")
    app = Celery("l08-publisher", broker=node.url, set_as_current=False)
    app.send_task("l08.echo", ("warm",), queue=queue)  # connection and queue ready before the alarm
    seen: dict = {"sent": 0, "raised": None}

    def send() -> None:
        for _ in range(BURST):
            try:
                app.send_task("l08.echo", (PAYLOAD,), queue=queue)
                seen["sent"] += 1
            except Exception as error:  # noqa: BLE001 - what the publisher sees is what is measured
                seen["raised"] = seen["raised"] or type(error).__name__

    helpers.raise_memory_alarm(node)
    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    helpers.wait(ALARMED)
    helpers.lift_memory_alarm(node)
    thread.join(helpers.EXPECTED)
    after = helpers.still_messages(node, [queue]).get(queue, 0) - 1
    app.close()
    return Burst(seen["sent"], seen["raised"], after)
