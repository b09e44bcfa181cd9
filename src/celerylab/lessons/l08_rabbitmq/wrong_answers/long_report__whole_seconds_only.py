"""Makes one 1-second part per whole second (range(int(seconds))), so a report of 7.5 s logs parts adding up to 7 s. Violates: "for each report, the parts logged add up to its seconds, and no part number is logged twice;". Blind review.

Exact for the integer durations of the examples (4 s); any fractional duration loses its remainder.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.worker_prefetch_multiplier = 1


# cost: a message per second of work, and a crash redoes up to 1 s
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0) -> None:
    crunch(label, part, 1)
    if part + 1 < int(seconds):
        report.delay(label, seconds, part + 1)
