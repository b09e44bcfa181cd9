"""Runs a report as one message per 0.5 s part that sends the next one, keeping how far each report got in a file per label under a fixed folder of /tmp: a worker on another machine (its own /tmp) that takes over after a crash finds no progress and starts the report over from part 0. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report". Blind review.

The file survives the worker's death and its restart on the same machine, unlike a count in memory.
"""
import json
import os

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
PROGRESS = "/tmp/ex_report_progress"  # one file per report label: its next part and the seconds done
# cost: a message per half second of work, and a file write per part


def _path(label: str) -> str:
    return os.path.join(PROGRESS, f"{label}.json")


def _load(label: str) -> tuple[int, float]:
    try:
        with open(_path(label), encoding="utf-8") as file:
            part, done = json.load(file)
        return int(part), float(done)
    except (OSError, ValueError):
        return 0, 0.0


@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float) -> None:
    part, done = _load(label)
    step = min(PART, seconds - done)
    crunch(label, part, step)
    done += step
    if done < seconds - 1e-9:
        os.makedirs(PROGRESS, exist_ok=True)
        with open(_path(label), "w", encoding="utf-8") as file:
            json.dump([part + 1, done], file)
        report.delay(label, seconds)
    else:
        try:
            os.remove(_path(label))  # the report is over: the label may come again
        except OSError:
            pass
