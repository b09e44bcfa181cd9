"""Keeps each report's next part number and seconds done in a module-level dict of the child process and re-sends ex.report with the same arguments, so after a SIGKILL the new child starts the report over from part 0. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report: at the same time, on a second, identical worker (on a virtual host of its own), it sends `ex.report("k", 6)` and, as soon as its second part is logged, kills that worker and its children with `SIGKILL` (the process manager starts it again); the parts logged for `"k"` cover its 6 s, and at most one part is logged twice.". Blind review.

With one long-lived child and no crash, the dict is a perfectly good cursor.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.worker_prefetch_multiplier = 1
PART = 1.0
_progress: dict[str, tuple[int, float]] = {}  # label -> (next part, seconds done)


# cost: a message per second of work
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float) -> None:
    part, done = _progress.get(label, (0, 0.0))
    s = min(PART, seconds - done)
    crunch(label, part, s)
    done += s
    if done < seconds - 1e-9:
        _progress[label] = (part + 1, done)
        report.delay(label, seconds)
    else:
        _progress.pop(label, None)
