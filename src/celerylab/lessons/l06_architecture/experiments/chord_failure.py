"""A group, a chord, then chords with a failing chunk: with one callback, and with a group as the body."""
from dataclasses import dataclass

from celery import chord, group

from celerylab.lessons.l06_architecture import helpers, tasks


@dataclass
class ChordFailure:
    squares: list            # the group's results
    total: object            # the chord's callback result
    members: list[str]       # states of the broken chord's members (chunk 13 raises)
    callback_state: str
    callback_error: str      # repr of the callback's result
    body_states: list[str]   # a chord whose body is a group of 2: each body task's state once decided (or PENDING)
    body_errors: list[str]   # and its result


def chord_failure() -> ChordFailure:
    squares = group(tasks.process_chunk.s(i) for i in range(1, 6)).apply_async()
    total = chord(group(tasks.process_chunk.s(i) for i in range(1, 6)), tasks.consolidate.s()).apply_async()

    broken = chord(group(tasks.process_chunk.s(i) for i in (1, 2, 13, 4)), tasks.consolidate.s()).apply_async()
    helpers.until(lambda: broken.state != "PENDING")  # the callback is decided when the last member ends
    body = chord(group(tasks.process_chunk.s(i) for i in (1, 13)),
                 group(tasks.consolidate.s(), tasks.consolidate.s())).apply_async()
    helpers.until(lambda: all(task.state != "PENDING" for task in body.results), timeout=8)  # 5.5: never decided
    return ChordFailure(squares.get(timeout=10), total.get(timeout=10),
                        [member.state for member in broken.parent.results], broken.state, repr(broken.result),
                        [task.state for task in body.results], [repr(task.result) for task in body.results])
