"""Wrong: turns the worker's prefetch down to 1 and then cuts 2.5 s parts: it survives only because it changed the worker's default prefetch the statement fixes, holding messages close to the timeout. Violates: "one prefork worker, concurrency 1, default prefetch". Blind review."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 2.5  # just under the 3 s timeout

app.conf.worker_prefetch_multiplier = 1

# Cost: one message per part, prefetch 1 (less throughput), and a crash redoes up to 2.5 s.
@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float, part: int = 0, remaining: float | None = None) -> None:
    remaining = float(seconds) if remaining is None else remaining
    step = min(PART, remaining)
    crunch(label, part, step)
    left = remaining - step
    if left > 1e-9:
        report.apply_async((label, seconds, part + 1, left))
