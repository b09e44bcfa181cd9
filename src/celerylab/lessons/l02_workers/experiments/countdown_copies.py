"""A reminder with countdown=4 and a 3 s task on two acks_late replicas, with a 1.5 s and a 6 s visibility timeout."""
import time
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs
from celerylab.stack import Stack

WINDOW = 5.5  # seconds after the send during which every start counts


@dataclass
class Copies:
    remind: list[float]  # seconds after the send at which each copy of the reminder started
    long: list[float]    # the same, for the 3 s task


def countdown_copies(lab: Stack, timeouts=(1.5, 6)) -> dict[float, Copies]:
    def replicas(visibility_timeout):
        spec = helpers.worker("celery", concurrency=2, task_acks_late=True,
                              broker_transport_options=helpers.lab_transport(visibility_timeout))
        return [spec, spec]                    # two replicas of the same worker

    stacks = helpers.experiments(lab, {vt: replicas(vt) for vt in timeouts})  # started in parallel
    try:
        sent = {}
        for vt, s in stacks.items():
            sent[vt] = time.time()             # before the sends: the countdown counts from after them
            s.app.send_task("l02.work", (f"remind-{vt}", 0.2), countdown=4)
            s.app.send_task("l02.work", (f"long-{vt}", 3))
        found = {vt: {kind: runs.watch(s, f"{kind}-{vt}", until=sent[vt] + WINDOW) for kind in ("remind", "long")}
                 for vt, s in stacks.items()}
    finally:
        for s in stacks.values():
            s.close()
    return {vt: Copies(*([entry["at"] - sent[vt] for entry in found[vt][kind]] for kind in ("remind", "long")))
            for vt in timeouts}
