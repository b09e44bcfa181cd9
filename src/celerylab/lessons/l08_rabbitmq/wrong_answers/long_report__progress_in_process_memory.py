"""Re-enqueues the same (label, seconds) message after each part and keeps the parts done in a dict in the pool process's memory, so after the SIGKILL the new process starts "k" again from part 0 (several parts logged twice), and a later report with the same label continues where the old one stopped. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report". Blind review."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 1.0
_done: dict[str, float] = {}  # label -> seconds already crunched


# Cost: one message per part; progress lives in the worker process.
@app.task(name="ex.report", bind=True, acks_late=True)
def report(self, label: str, seconds: float) -> None:
    done = _done.get(label, 0.0)
    step = min(PART, seconds - done)
    crunch(label, int(round(done / PART)), step)
    done += step
    if done < seconds - 1e-9:
        _done[label] = done
        report.apply_async((label, seconds))
    else:
        _done.pop(label, None)
