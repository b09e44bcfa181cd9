"""What `send_task` (what `.delay()` calls) does when nothing listens at the broker's address, with Celery's
default publish retry policy: after how long it raises, and what."""
import time
from dataclasses import dataclass

from celery import Celery

from celerylab.stack.ports import free_port


@dataclass
class BrokerDown:
    raised: str | None     # the exception's class
    raised_after: float    # seconds from the call until it raised
    publish_retry: bool    # task_publish_retry
    retry_policy: dict     # task_publish_retry_policy


def broker_down() -> BrokerDown:
    app = Celery("l08-publisher", broker=f"amqp://guest:guest@127.0.0.1:{free_port()}//", set_as_current=False)
    started = time.monotonic()
    try:
        app.send_task("l08.echo", ("x",))
        raised = None
    except Exception as error:  # noqa: BLE001 - the class is what is measured
        raised = f"{type(error).__module__}.{type(error).__name__}"
    seen = BrokerDown(raised, time.monotonic() - started, app.conf.task_publish_retry,
                      dict(app.conf.task_publish_retry_policy))
    app.close()
    return seen
