"""Splits the report into int(seconds) one-second parts, so the fraction of a report like 2.5 s is never done (2 s logged) and a report shorter than 1 s crunches a whole second (0.3 s logged as 1 s). Violates: "`seconds` may be any positive duration, fractions included". Blind review."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 1.0  # seconds per message: well under the 3 s consumer_timeout


# Cost: one message per second of work (publishes, acks), and a report that restarts mid-way redoes one part.
@app.task(name="ex.report", bind=True, acks_late=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    crunch(label, part, PART)
    if part + 1 < int(seconds):
        report.apply_async((label, seconds, part + 1))  # the next part is a message of its own
