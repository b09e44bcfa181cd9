"""Marks the part done, then publishes the next one (no outbox): a crash between the two finds the part done on redelivery and never sends the rest. Violates: "for each, the parts logged cover its seconds, and at most one part is logged twice". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: one message and one "done" mark per part; a crash redoes the part that was running.


def done_key(run: str, part: int) -> str:
    return f"ex.report:{run}:{part}:done"


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float, run: str) -> None:
    if app.backend.get(done_key(run, part)) is not None:
        return  # done already
    crunch(label, part, min(PART, seconds - part * PART))
    app.backend.set(done_key(run, part), "1")
    if (part + 1) * PART < seconds - 1e-12:
        report_part.delay(label, part + 1, seconds, run)


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    report_part.delay(label, 0, seconds, self.request.id)
