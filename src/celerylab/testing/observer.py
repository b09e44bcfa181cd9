"""What the `observe` fixture hands a claim test: it records values, and with `that` / `equal` asserts them in the same call."""
from __future__ import annotations

import difflib
import pprint
import reprlib
from collections.abc import Callable


def short_repr() -> reprlib.Repr:
    """A repr that keeps a failure's first line readable: long strings, lists and dicts cut with '...'."""
    short = reprlib.Repr()  # set one by one: Python 3.11's Repr() takes no arguments
    short.maxstring = short.maxother = 80
    short.maxlist = short.maxdict = short.maxtuple = short.maxset = 12
    short.maxlevel = 4
    return short


SHORT = short_repr()
CONTAINERS = (dict, list, tuple, set, frozenset)


def full_diff(actual, expected) -> list[str]:
    """pytest's "Full diff" of two containers: `-` what was expected, `+` what was measured."""
    lines = difflib.ndiff(pprint.pformat(expected).splitlines(), pprint.pformat(actual).splitlines())
    return ["Full diff (- expected, + measured):", *(f"  {line}" for line in lines if not line.startswith("?"))]


def unequal(name: str, actual, expected) -> str:
    """The failure of `name`: both values in short, and the diff when both are containers."""
    lines = [f"{name}: {SHORT.repr(actual)} != {SHORT.repr(expected)}"]
    if isinstance(actual, CONTAINERS) and isinstance(expected, CONTAINERS):
        lines += full_diff(actual, expected)
    return "\n".join(lines)


def untrue(name: str, value, why) -> str:
    """The failure of the condition `name`, with what the test gave to explain it."""
    because = "" if why is None else f": {why if isinstance(why, str) else SHORT.repr(why)}"
    return f"{name} is {SHORT.repr(value)}{because}"


class Observer:
    """`observe(name=value)` records; `observe.that(name=condition, why=...)` and `observe.equal(name=(actual,
    expected))` record, then assert: a failing claim has its observation kept all the same."""

    def __init__(self, keep: Callable[[dict], None]):
        self.keep = keep

    def __call__(self, **values) -> None:
        self.keep(values)

    def that(self, *, why=None, **conditions) -> None:
        """Record each condition as given, then assert each is true (the message names the false ones, with `why`)."""
        self.keep(conditions)
        failures = [untrue(name, value, why) for name, value in conditions.items() if not value]
        if failures:
            raise AssertionError("\n".join(failures))

    def equal(self, *, why=None, **pairs: tuple) -> None:
        """Record each pair's measured value, then assert it equals the expected one (all mismatches in the message,
        then `why`)."""
        for name, pair in pairs.items():
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"observe.equal({name}=...) takes (measured, expected), got {SHORT.repr(pair)}")
        self.keep({name: actual for name, (actual, _) in pairs.items()})
        failures = [unequal(name, actual, expected) for name, (actual, expected) in pairs.items()
                    if not actual == expected]
        if failures and why is not None:
            failures.append(f"why: {why if isinstance(why, str) else SHORT.repr(why)}")
        if failures:
            raise AssertionError("\n".join(failures))
