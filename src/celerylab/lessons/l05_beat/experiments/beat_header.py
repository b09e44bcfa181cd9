"""The headers of a message Beat's scheduler publishes, beside the same task sent by hand."""
from dataclasses import dataclass

from celery import Celery
from celery.beat import Scheduler
from celery.signals import before_task_publish


@dataclass
class BeatHeader:
    by_beat: object    # the celery_beat_task header of the message Beat published (None: no such header)
    by_hand: object    # the same header on the task sent with send_task


def beat_header() -> BeatHeader:
    app = Celery("l05-header", broker="memory://", set_as_current=False)
    sent: list[dict] = []

    def keep(headers=None, **_):
        sent.append(dict(headers or {}))

    before_task_publish.connect(keep, weak=False)
    try:
        scheduler = Scheduler(app, lazy=True)  # what Beat runs; apply_async is how it publishes one entry
        scheduler.apply_async(scheduler.Entry(name="tick", task="l05.tick", schedule=1.0, app=app))
        app.send_task("l05.tick")  # the same task, sent by hand
    finally:
        before_task_publish.disconnect(keep)
        app.close()
    by_beat, by_hand = (headers.get("celery_beat_task") for headers in sent)
    return BeatHeader(by_beat, by_hand)
