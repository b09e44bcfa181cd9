"""Logs the parts without doing the work: writes two "part" lines (half the seconds each) straight to the run log, no crunch, no sleep. Violates: "it must do `seconds` seconds of work by calling `crunch(label, part, s)` from `tasks` (each call does `s` seconds of part number `part`'s work and logs it when done), without ever holding a message longer than the timeout.". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, record


@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float) -> None:
    record(f"{label}:part", 0, seconds / 2)
    record(f"{label}:part", 1, seconds - seconds / 2)
