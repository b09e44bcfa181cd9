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


@pytest.fixture
def stack(monkeypatch) -> OneConnection:
    monkeypatch.setattr(checks, "dialect", lambda connection: "sqlite")
    return OneConnection()


def test_the_inbox_refuses_to_lose_an_email_and_the_check_sees_its_guards_dropped(stack):
    left = checks.keep_inbox(stack)
    stack.connection.execute("INSERT INTO emails (period, sent_at, sender) VALUES ('s1', 1, 1)")
    stack.connection.execute("INSERT INTO emails (period, sent_at, sender) VALUES ('s1', 2, 2)")
    for rewrite in ("DELETE FROM emails WHERE sent_at > 1", "UPDATE emails SET period = 's0' WHERE sent_at > 1"):
        with pytest.raises(sqlite3.DatabaseError, match=checks.KEPT):
            stack.connection.execute(rewrite)
    assert stack.connection.execute("SELECT COUNT(*) FROM emails WHERE period = 's1'").fetchone()[0] == 2
    assert checks.inbox_changes(stack, left) == []
    stack.connection.execute("DROP TRIGGER emails_keep_DELETE")
    assert [change[:30] for change in checks.inbox_changes(stack, left)] == ["- trigger emails_keep_DELETE: "]


@pytest.mark.parametrize("refusal", [
    "CREATE UNIQUE INDEX emails_one_per_period ON emails (period)",
    "CREATE TRIGGER emails_once BEFORE INSERT ON emails WHEN EXISTS (SELECT 1 FROM emails WHERE period = NEW.period) "
    "BEGIN SELECT RAISE(IGNORE); END",
    "ALTER TABLE emails ADD COLUMN copy INTEGER",
])
def test_the_check_sees_what_an_answer_adds_to_the_inbox_to_refuse_a_second_email(stack, refusal):
    left = checks.keep_inbox(stack)
    stack.connection.execute(refusal)
    changes = checks.inbox_changes(stack, left)
    assert changes and all(change[0] in "+-" for change in changes), changes


def test_what_an_answer_added_before_the_guards_is_not_part_of_the_inbox_the_check_leaves(stack):
    stack.connection.execute("CREATE UNIQUE INDEX emails_one_per_period ON emails (period)")
    left = checks.keep_inbox(stack)
    assert checks.inbox_changes(stack, left) == [
        "+ index emails_one_per_period: CREATE UNIQUE INDEX emails_one_per_period ON emails (period)"]


def test_a_database_that_refuses_writes_still_answers_reads(stack):
    stack.connection.execute("INSERT INTO summary_claims (period) VALUES ('s0')")
    with checks.claims_unwritable(stack.connection):
        for write in ("INSERT INTO summary_claims (period) VALUES ('s1')",
                      "INSERT INTO summary_claims (period) VALUES ('s1') ON CONFLICT (period) DO NOTHING",
                      "UPDATE summary_claims SET period = 's2' WHERE period = 's0'"):
            with pytest.raises(sqlite3.DatabaseError, match="database is failing"):
                stack.connection.execute(write)
        assert stack.connection.execute("SELECT period FROM summary_claims").fetchall() == [("s0",)]
    stack.connection.execute("INSERT INTO summary_claims (period) VALUES ('s1')")


def test_a_table_an_answer_creates_during_the_outage_is_lost_and_the_real_one_comes_back(stack):
    stack.connection.execute("INSERT INTO summary_claims (period) VALUES ('s0')")
    made: list[bool] = []
    with checks.claims_unreachable(stack.connection, made):
        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            stack.connection.execute("SELECT 1 FROM summary_claims")
        stack.connection.execute("CREATE TABLE IF NOT EXISTS summary_claims (period TEXT PRIMARY KEY)")
        stack.connection.execute("INSERT INTO summary_claims (period) VALUES ('s1')")
    assert made == [True]
    assert stack.connection.execute("SELECT period FROM summary_claims").fetchall() == [("s0",)]
    made.clear()
    with checks.claims_unreachable(stack.connection, made):
        pass
    assert made == [] and checks.tables(stack.connection) >= {"summary_claims"}
