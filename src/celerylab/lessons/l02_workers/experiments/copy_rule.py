"""One acks_late task per case, sent with a countdown past a 4 s visibility timeout: how many copies run."""
import time
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs
from celerylab.stack import Stack

CASES = {  # name: (visibility_timeout, sweep every s or None: kombu's own, countdown), halfway between multiples
    "one_and_a_half": (4, 0.5, 6), "two_and_a_half": (4, 0.5, 10), "kombu_sweep": (4, None, 10)}
LATE = 3.5  # seconds after the due time a copy still counts


@dataclass
class CopyRule:
    visibility_timeout: float
    sweep: float | None
    countdown: float
    runs: int


def copy_rule(lab: Stack) -> dict[str, CopyRule]:
    stacks = helpers.experiments(lab, {
        name: [helpers.worker("celery", task_acks_late=True,
                              broker_transport_options=helpers.lab_transport(vt, sweep=sweep))]
        for name, (vt, sweep, _) in CASES.items()})
    try:
        sent = {}
        for name, s in stacks.items():
            s.app.send_task("l02.work", (f"rule-{name}", 0), countdown=CASES[name][2])
            sent[name] = time.time()
        found = {name: runs.watch(s, f"rule-{name}", until=sent[name] + CASES[name][2] + LATE)
                 for name, s in stacks.items()}
    finally:
        for s in stacks.values():
            s.close()
    return {name: CopyRule(*CASES[name], len(found[name])) for name in CASES}
