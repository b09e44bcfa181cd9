"""Always splits the report into three parts, which keeps 7 s (2.3 s parts) under the 3 s timeout but makes each part of a 10-second report 3.3 s, longer than the timeout. Violates: "Write task `ex.report(label, seconds)` in `ex_report.py`: it must do `seconds` seconds of work by calling `crunch(label, part, s)` from `tasks` (each call does `s` seconds of part number `part`'s work and logs it when done), without ever holding a message longer than the timeout.". Blind review.

Tuned to the example's 7 s; "at final grading, criteria 1 to 3 with another duration".
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.worker_prefetch_multiplier = 1
PARTS = 3


# cost: one extra message per part, and a crash redoes up to a third of the report
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0) -> None:
    crunch(label, part, seconds / PARTS)
    if part + 1 < PARTS:
        report.delay(label, seconds, part + 1)
