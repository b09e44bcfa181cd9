"""Skips a last part shorter than 0.05 s ("not worth a message"), so the parts do not add up to `seconds`. Violates: "for each report, the parts logged add up to its seconds". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

# Cost: a report becomes many short messages (one per part of at most PART seconds), so it pays a broker
# round trip per part, interleaves with other reports instead of finishing first, and a crash redoes the
# part that was running (its message is acknowledged only after the part, and requeued if its process dies).

PART = 0.5  # 4 prefetched parts: 2 s < 3 s timeout


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    done = part * PART
    s = min(PART, seconds - done)
    crunch(label, part, s)
    if seconds - (done + s) >= 0.05:
        self.app.send_task("ex.report", args=(label, seconds, part + 1))
