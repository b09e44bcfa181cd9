"""Always splits the report into ten chained parts: the example's 4 s reports become 0.4 s parts, but a 40 s report has 4 s parts, past the 3 s timeout. Violates: "`seconds` may be any positive duration, fractions included: at final grading, criteria 1 to 3 with reports far shorter and far longer."
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PARTS = 10


# cost: one extra message per part, and a crash redoes a tenth of the report
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0) -> None:
    crunch(label, part, seconds / PARTS)
    if part + 1 < PARTS:
        report.delay(label, seconds, part + 1)
