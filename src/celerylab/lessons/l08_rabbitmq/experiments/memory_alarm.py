"""Two publishers, publisher confirms off and on, each send 3 small tasks while the node's memory alarm is raised
(watermark near 0) for ALARMED s, then lifted: when each `send_task` loop returned, how many messages the queue
held during the alarm and after."""
import threading
import time
from dataclasses import dataclass

from celery import Celery

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

ALARMED = 1.0  # seconds the alarm lasts once publishers have sent into it


@dataclass
class Alarmed:
    returned_during_alarm: bool
    returned_after: float | None   # seconds from the alarm until its 3 sends returned
    alarm_lifted_after: float      # seconds the alarm lasted
    in_queue_during_alarm: int
    in_queue_after: int


def memory_alarm(node) -> dict[str, Alarmed]:
    queues = {"off": helpers.queue_name("blocked"), "on": helpers.queue_name("blocked")}
    apps = {name: Celery("l08-publisher", broker=node.url, set_as_current=False,
                         broker_transport_options={"confirm_publish": True} if name == "on" else {}) for name in queues}
    for name, app in apps.items():
        app.send_task("l08.echo", ("warm",), queue=queues[name])  # connection and queue ready before the alarm
    helpers.raise_memory_alarm(node)
    started, returned = time.monotonic(), {}

    def send(name: str) -> None:
        for number in range(3):
            apps[name].send_task("l08.echo", (number,), queue=queues[name])
        returned[name] = time.monotonic() - started

    threads = [threading.Thread(target=send, args=(name,), daemon=True) for name in apps]
    for thread in threads:
        thread.start()
    helpers.wait(ALARMED)
    during, returned_during = helpers.messages(node), set(returned)
    helpers.lift_memory_alarm(node)
    lifted = time.monotonic() - started
    for thread in threads:
        thread.join(helpers.EXPECTED)
    after = until(lambda: [found for found in [helpers.messages(node)]
                           if all(found.get(queue) == 4 for queue in queues.values())], helpers.EXPECTED)
    after = after[0] if after else helpers.messages(node)
    for app in apps.values():
        app.close()
    return {name: Alarmed(name in returned_during, returned.get(name), lifted, during.get(queues[name], 0) - 1,
                          after.get(queues[name], 0) - 1) for name in apps}
