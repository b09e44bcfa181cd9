"""Lesson 05's check guards without a live stack: the fake inbox an answer cannot rewrite (SQLite's dialect)."""
from __future__ import annotations

import sqlite3

import pytest

from celerylab.lessons.l05_beat import checks, helpers


class Unclosed:
    """One in-memory SQLite connection that the check's helpers may "close" (a no-op) and open again."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def execute(self, *args):
        return self.connection.execute(*args)

    def close(self) -> None:
        pass


class OneConnection:
    """A stack whose database is one in-memory SQLite database."""

    def __init__(self):
        self.connection = sqlite3.connect(":memory:", isolation_level=None)
        for statement in helpers.SCHEMA:
            self.connection.execute(statement)

    def db(self) -> Unclosed:
        return Unclosed(self.connection)


def test_the_inbox_refuses_to_lose_an_email_and_the_check_sees_its_guards_dropped(monkeypatch):
    stack = OneConnection()
    monkeypatch.setattr(checks, "dialect", lambda connection: "sqlite")
    checks.keep_inbox(stack)
    stack.connection.execute("INSERT INTO emails (period, sent_at, sender) VALUES ('s1', 1, 1)")
    stack.connection.execute("INSERT INTO emails (period, sent_at, sender) VALUES ('s1', 2, 2)")
    for rewrite in ("DELETE FROM emails WHERE sent_at > 1", "UPDATE emails SET period = 's0' WHERE sent_at > 1"):
        with pytest.raises(sqlite3.DatabaseError, match=checks.KEPT):
            stack.connection.execute(rewrite)
    assert stack.connection.execute("SELECT COUNT(*) FROM emails WHERE period = 's1'").fetchone()[0] == 2
    assert checks.inbox_kept(stack)
    stack.connection.execute("DROP TRIGGER emails_keep_DELETE")
    assert not checks.inbox_kept(stack)
