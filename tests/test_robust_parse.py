"""The fresh-thread retry: a SystemError from CPython's AST bookkeeping is retried once elsewhere, others are not."""
from __future__ import annotations

import threading

import pytest

from celerylab import robust_parse


def test_the_recursion_mismatch_is_retried_in_another_thread():
    calls = []

    def flaky(text):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=159, after=179)")
        return text.upper()

    assert robust_parse.robust(flaky, "ok") == "OK"
    assert calls[0] != calls[1] == "celerylab-fresh-parse"


def test_other_errors_are_not_retried():
    with pytest.raises(SystemError, match="something else"):
        robust_parse.robust(lambda: (_ for _ in ()).throw(SystemError("something else")))
    with pytest.raises(SyntaxError):
        robust_parse.parse("def (")
    assert robust_parse.parse("x = 1").body
