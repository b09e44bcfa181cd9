"""Parts of 0.25 s, every message after the first doing two of them: a crash right after the second part of a message logs both again. Violates: "for each, the parts logged cover its seconds, and at most one part is logged twice". Blind review.
"""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.25  # seconds of work per part; two parts a message, half a second, after the first
# Cost: one message per two parts, one "done" mark per message; a crash redoes the message that was running.


def done_key(run: str, first: int) -> str:
    return f"ex.report:{run}:{first}:done"


@app.task(name="ex.report_parts", acks_late=True, reject_on_worker_lost=True)
def report_parts(label: str, first: int, sizes: list, run: str) -> None:
    if app.backend.get(done_key(run, first)) is not None:
        return
    for offset, size in enumerate(sizes):
        crunch(label, first + offset, size)
    app.backend.set(done_key(run, first), "1")


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    sizes, done = [], 0.0
    while done < seconds:
        sizes.append(min(PART, seconds - done))
        done += sizes[-1]
    groups = [sizes[:1]] + [sizes[i:i + 2] for i in range(1, len(sizes), 2)]
    steps, first = [], 0
    for group in groups:
        steps.append(report_parts.si(label, first, group, self.request.id))
        first += len(group)
    chain(steps).apply_async()
