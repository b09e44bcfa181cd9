"""Lesson 01's check plumbing: the retry policy read from the worker, and the ways (g) breaks the e-mail footer."""
from __future__ import annotations

import builtins
import types

import pytest

from celerylab.lessons.l01_retries import checks


class Graded:
    """A CheckRun stand-in: only what footer_breakages asks (hidden criteria included or not)."""

    def __init__(self, hidden: bool):
        self.hidden = hidden

    def graded(self, n: int) -> bool:
        return self.hidden


def stack_registering(*lines: str):
    """A stack stand-in whose one worker registered `lines` (as `inspect registered` with attributes answers)."""
    inspect = types.SimpleNamespace(registered=lambda *items: {"w1@host": list(lines)})
    control = types.SimpleNamespace(inspect=lambda timeout, limit: inspect)
    return types.SimpleNamespace(app=types.SimpleNamespace(control=control), workers=[object()])


TIMEOUT = "autoretry_for=(<class 'TimeoutError'>,)"
NO_JITTER = "retry_jitter=False"


@pytest.mark.parametrize(("line", "policy"), [
    (f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER} {TIMEOUT}]", ("TimeoutError", 3, 1, 600, False)),
    (f"ex.welcome [max_retries=3 retry_backoff=True {NO_JITTER} {TIMEOUT}]",
     ("TimeoutError", 3, 1, 600, False)),  # True: 1 s
    (f"ex.welcome [max_retries=6 retry_backoff=1 {NO_JITTER} {TIMEOUT}]", ("TimeoutError", 6, 1, 600, False)),
    (f"ex.welcome [max_retries=3 retry_backoff=2.7 {NO_JITTER} {TIMEOUT}]",
     ("TimeoutError", 3, 2, 600, False)),  # truncated, as Celery
    (f"ex.welcome [max_retries=3 retry_backoff=False {NO_JITTER} {TIMEOUT}]", ("TimeoutError", 3, None, 600, False)),
    (f"ex.welcome [retry_backoff=1 {NO_JITTER} {TIMEOUT}]",
     ("TimeoutError", None, 1, 600, False)),  # max_retries=None: left out
    (f"ex.welcome [max_retries=3 retry_backoff=1 retry_backoff_max=0 {NO_JITTER} {TIMEOUT}]",
     ("TimeoutError", 3, 1, 0, False)),
    (f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER} "
     "autoretry_for=(<class 'TimeoutError'>, <class 'ConnectionError'>)]",
     ("TimeoutError, ConnectionError", 3, 1, 600, False)),
    (f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER} "
     "autoretry_for=(<class 'requests.exceptions.Timeout'>,)]", ("Timeout", 3, 1, 600, False)),
    (f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER}]", ("", 3, 1, 600, False)),  # no autoretry_for at all
    (f"ex.welcome [max_retries=3 retry_backoff=1 {TIMEOUT}]", ("TimeoutError", 3, 1, 600, True)),  # Celery's jitter
    (f"ex.welcome [max_retries=3 retry_backoff=1 retry_jitter=True {TIMEOUT}]", ("TimeoutError", 3, 1, 600, True)),
])
def test_the_welcome_policy_is_read_as_celery_applies_it(line, policy):
    stack = stack_registering("ex.other [max_retries=9]", line)
    assert checks.welcome_policy(stack) == policy
    assert (checks.welcome_policy(stack) == checks.GIVEN_POLICY) == (policy == ("TimeoutError", 3, 1, 600, False))


def test_no_welcome_task_registered_reads_as_none():
    assert checks.welcome_policy(stack_registering("ex.other [max_retries=3 retry_backoff=1]")) is None


def test_the_footer_breaks_in_ways_no_list_of_the_named_exceptions_covers(tmp_path):
    """Each breakage, applied in order, makes opening the footer raise what the check reports; the hidden ones raise
    an OSError no named exception is (nor a subclass of one), so a deny-list of the named ones retries them."""
    footer = tmp_path / "l01-footer" / "footer.txt"
    footer.parent.mkdir()
    footer.write_text("-- celerylab\n", encoding="utf-8")
    raised = {}
    for name, breaks, hidden in checks.footer_breakages(Graded(hidden=True), footer):
        breaks()
        raised[name] = (checks.open_error(footer), hidden)
    named = (FileNotFoundError, IsADirectoryError, UnicodeDecodeError, TypeError)
    assert raised["missing"] == ("FileNotFoundError", False)
    assert raised["folder"] == ("IsADirectoryError", False)
    assert raised["undecodable"] == ("UnicodeDecodeError", False)
    assert raised["under_file"] == ("NotADirectoryError", False)
    assert raised["self_link"] == ("OSError", True)
    assert raised["unreadable"][1] is True
    assert raised["unreadable"][0] in ("PermissionError", None)  # None: this machine cannot make it unreadable
    for name in ("under_file", "self_link"):
        assert not issubclass(getattr(builtins, raised[name][0]), named)


def test_the_hidden_breakages_are_left_out_of_a_learners_check(tmp_path):
    names = [name for name, _, _ in checks.footer_breakages(Graded(hidden=False), tmp_path / "d" / "footer.txt")]
    assert names == ["missing", "folder", "undecodable", "under_file"]
