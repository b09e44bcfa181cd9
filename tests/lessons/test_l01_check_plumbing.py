"""Lesson 01's check plumbing: the retry policy read from the worker, the ways (g) breaks the e-mail footer, what
months do to the stack, the event ids whose digests collide."""
from __future__ import annotations

import builtins
import hashlib
import sqlite3
import types
import zlib
from datetime import date, datetime, timedelta

import pytest
import redis

from celerylab import appdb
from celerylab.lessons.l01_retries import checks
from celerylab.stack import Stack
from celerylab.stack.errors import ServiceError


class Graded:
    """A CheckRun stand-in: only what footer_breakages asks (hidden criteria included or not)."""

    def __init__(self, hidden: bool):
        self.hidden = hidden

    def graded(self, n: int) -> bool:
        return self.hidden


def stack_answering(*replies, asked: list | None = None):
    """A stack stand-in whose `inspect registered` gets each of `replies` in turn (None: no worker answered in time),
    the last one again and again; each inspect's timeout is added to `asked`."""
    answers = list(replies)

    def inspect(timeout, limit):
        if asked is not None:
            asked.append(timeout)
        reply = answers.pop(0) if len(answers) > 1 else answers[0]
        return types.SimpleNamespace(registered=lambda *items: reply)

    control = types.SimpleNamespace(inspect=inspect)
    return types.SimpleNamespace(app=types.SimpleNamespace(control=control), workers=[object()])


def stack_registering(*lines: str):
    """A stack stand-in whose one worker registered `lines` (as `inspect registered` with attributes answers)."""
    return stack_answering({"w1@host": list(lines)})


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


def test_a_worker_that_misses_the_first_request_is_asked_again_each_time_waiting_longer():
    """A worker just started can miss a broadcast, and a loaded one answer late: no answer is no policy read yet."""
    asked: list[float] = []
    line = f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER} acks_late=False {TIMEOUT}]"
    stack = stack_answering(None, {}, {"w1@host": [line]}, asked=asked)
    assert checks.welcome_line(stack) == line
    assert checks.policy_of(line) == checks.GIVEN_POLICY
    assert asked == [3.0, 6.0, 10.0]


def test_no_worker_answering_is_the_checks_own_failure_not_a_policy_of_none():
    with pytest.raises(ServiceError) as raised:
        checks.welcome_line(stack_answering(None), patience=0)
    assert raised.value.key == "l01.check.policy_unread"


@pytest.mark.parametrize(("acks", "late"), [("", False), ("acks_late=False ", False), ("acks_late=True ", True),
                                            ("acks_late=None ", False)])
def test_acks_late_is_read_from_the_registered_line(acks, late):
    line = f"ex.welcome [max_retries=3 retry_backoff=1 {NO_JITTER} {acks}{TIMEOUT}]"
    assert checks.acks_late_of(line) is late
    assert checks.policy_of(line) == checks.GIVEN_POLICY
    assert checks.acks_late_of(None) is None


def test_the_event_id_pairs_share_the_digest_cuts_a_short_key_takes():
    """Each cut a short key takes (the first or last 8 hex digits of sha256, md5 or sha1, crc32) is the same for both
    events of one pair, and the ids differ only in the event's number."""
    cuts = [lambda e: hashlib.sha256(e).hexdigest()[:8], lambda e: hashlib.sha256(e).hexdigest()[-8:],
            lambda e: hashlib.md5(e).hexdigest()[:8], lambda e: hashlib.md5(e).hexdigest()[-8:],
            lambda e: hashlib.sha1(e).hexdigest()[:8], lambda e: hashlib.sha1(e).hexdigest()[-8:], zlib.crc32]
    assert len(checks.DIGEST_PAIRS) == len(cuts)
    for cut, ((first_user, first), (second_user, second)) in zip(cuts, checks.DIGEST_PAIRS):
        assert first_user == second_user == 7
        assert first != second and first.rpartition(":")[0] == second.rpartition(":")[0]
        assert cut(first.encode()) == cut(second.encode())


class SqliteStack:
    """A stack stand-in with only an SQLite application database."""

    def __init__(self, path):
        self.url = f"sqlite:///{path}"
        self.database = object()

    def db(self):
        return appdb.connect(self.url)


def test_months_age_every_date_and_time_an_sqlite_database_holds_in_the_form_it_had(tmp_path):
    stack = SqliteStack(tmp_path / "app.db")
    connection = stack.db()
    appdb.execute(connection, "CREATE TABLE keys (k TEXT, at DATETIME, iso TIMESTAMP, day DATE, epoch TIMESTAMP,"
                              " note TEXT)")
    rows = [("plain", "2025-03-01 10:00:00", "2025-03-01T10:00:00.250", "2025-03-01", 1740823200, "2025-03-01"),
            ("odd", "never", None, "2025-13-45", 12.5, "x")]
    for row in rows:
        appdb.execute(connection, "INSERT INTO keys VALUES (?, ?, ?, ?, ?, ?)", row)
    connection.close()
    checks.age_database(stack, checks.MONTHS_LATER)
    shift = timedelta(seconds=round(checks.MONTHS_LATER * 86400))
    moved = datetime(2025, 3, 1, 10) - shift
    with sqlite3.connect(tmp_path / "app.db") as reader:
        plain, odd = reader.execute("SELECT at, iso, day, epoch, note FROM keys ORDER BY k DESC").fetchall()
    assert plain == (f"{moved:%Y-%m-%d %H:%M:%S}", f"{moved:%Y-%m-%dT%H:%M:%S}.250",
                     str((datetime(2025, 3, 1) - shift).date()), 1740823200 - shift.total_seconds(), "2025-03-01")
    assert odd == ("never", None, "2025-13-45", 12.5, "x")  # no date: kept as it was
    assert (datetime(2025, 3, 1) - shift).date() < date(2024, 2, 1)  # more than a year back


@pytest.mark.live
@pytest.mark.needs("packaged-postgres")
def test_months_empty_every_database_of_the_brokers_redis_and_age_postgres(monkeypatch):
    """Every key of every database of the stack's Redis goes but the broker's routing table; a PostgreSQL expiry set
    by the database's own clock has passed, and a column of no date type is left as it was."""
    monkeypatch.delenv(appdb.DATABASE_URL_ENV, raising=False)
    schema = ["CREATE TABLE keys (k TEXT, expires_at TIMESTAMP, stamped TIMESTAMPTZ, day DATE, note TEXT)"]
    with Stack.start("celerylab.stack.smoke", database=schema, workers=0, timeline=False) as stack:
        connection = stack.db()
        appdb.execute(connection, "INSERT INTO keys VALUES ('k', now() + interval '30 days', now(), current_date,"
                                  " 'kept')")
        binding = f"{stack.namespace}_kombu.binding.celery"
        clients = {number: redis.Redis.from_url(stack.broker.url.rpartition("/")[0] + f"/{number}")
                   for number in (0, 7, 15)}
        clients[0].sadd(binding, "celery\x06\x16\x06\x16celery")
        for number, client in clients.items():
            client.set(f"charged:{number}", "1")
        checks.months_pass(stack)
        assert [sorted(client.keys()) for client in clients.values()] == [[binding.encode()], [], []]
        assert appdb.scalar(connection, "SELECT COUNT(*) FROM keys WHERE expires_at > now()") == 0
        assert appdb.scalar(connection, "SELECT now() - stamped > interval '400 days' AND"
                                        " current_date - day >= 400 FROM keys") is True
        assert appdb.scalar(connection, "SELECT note FROM keys") == "kept"
        for client in clients.values():
            client.close()
        connection.close()


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
