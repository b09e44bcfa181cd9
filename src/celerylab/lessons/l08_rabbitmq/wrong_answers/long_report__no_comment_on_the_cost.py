"""The right chain of parts, but without the comment on what the design costs (a learner who skips the write-up). Violates: "In a comment, say what else your design costs.". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch


@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float, part: int = 0, done: float = 0.0) -> None:
    s = min(0.5, seconds - done)
    crunch(label, part, s)
    if seconds - done - s > 1e-9:
        report.apply_async((label, seconds, part + 1, done + s))
