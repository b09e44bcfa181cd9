"""The notes' third case: l03.lookup receives {1: "a"} and does data[1]."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import tasks


@dataclass
class Lookup:
    state: str
    result: object  # the value, or the exception the task raised


def int_key_lookup(data: dict | None = None, key=1) -> Lookup:
    result = tasks.lookup.delay({1: "a"} if data is None else data, key)
    result.get(timeout=10, propagate=False)
    return Lookup(result.state, result.result)
