"""The notes' import pipeline as a chain of 4 steps, on a good CSV and on one whose first step raises."""
from dataclasses import dataclass

from celery import chain

from celerylab.lessons.l06_architecture import helpers, tasks

CSV = "name,email\nana souza, Ana@Example.com\nbruno lima,bruno@example.com\n"
BAD_CSV = "name,email\nana souza,ana-at-example.com\n"


@dataclass
class Step:
    name: str          # the task
    good: str          # its state in the good run
    bad_state: str     # its state in the bad run
    bad_result: str    # repr of what the bad run stored


@dataclass
class ChainFailure:
    good_result: object
    steps: list[Step]  # in the chain's order


def import_file(text):  # the notes' pipeline
    return chain(tasks.validate_csv.s(text), tasks.transform.s(), tasks.insert.s(),
                 tasks.notify.s("ops@example.com")).apply_async()


def steps(last) -> list:  # from the chain's last result back to its first
    found: list = []
    while last is not None:
        found.insert(0, last)
        last = last.parent
    return found


def chain_failure() -> ChainFailure:
    good, bad = import_file(CSV), import_file(BAD_CSV)
    good_result = good.get(timeout=10)
    bad.get(timeout=10, propagate=False)
    helpers.until(lambda: all(step.state != "PENDING" for step in steps(good) + steps(bad)))
    return ChainFailure(good_result, [Step(step.name, step.state, bad_step.state, repr(bad_step.result))
                                      for step, bad_step in zip(steps(good), steps(bad))])
