"""The stack's own database: SQLite in its folder, or a private PostgreSQL schema dropped on close; every process sees it."""
from __future__ import annotations

import os

import pytest

from celerylab import appdb
from celerylab.i18n import set_lang
from celerylab.stack import Stack, StackError

pytestmark = pytest.mark.live
SMOKE = "celerylab.stack.smoke"
SCHEMA = ["CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT)"]


def round_trip(stack: Stack) -> None:
    connection = stack.db()
    appdb.execute(connection, "INSERT INTO notes (id, body) VALUES (?, ?)", (1, "hello"))
    assert appdb.scalar(connection, "SELECT body FROM notes WHERE id = ?", (1,)) == "hello"
    connection.close()
    seen = stack.app.send_task("celerylab.smoke.env", (appdb.DATABASE_URL_ENV,)).get(timeout=10)
    assert seen == stack.database_url == stack.process_env()[appdb.DATABASE_URL_ENV]


def test_sqlite_in_the_stack_folder_when_asked_for(monkeypatch):
    monkeypatch.setenv(appdb.DATABASE_URL_ENV, "sqlite:///app.db")
    with Stack.start(SMOKE, database=SCHEMA, timeline=False, broker_kind="embedded") as stack:
        assert stack.database.kind == "sqlite"
        assert stack.database_url == f"sqlite:///{stack.workdir / 'app.db'}"
        round_trip(stack)


@pytest.mark.needs("postgres")
def test_postgres_private_schema_dropped_on_close(monkeypatch, postgres_url):
    monkeypatch.setenv(appdb.DATABASE_URL_ENV, postgres_url)
    stack = Stack.start(SMOKE, database=True, schema=SCHEMA, timeline=False, broker_kind="embedded")
    try:
        assert stack.database.kind == "postgresql" and stack.database.schema in stack.database_url
        round_trip(stack)
    finally:
        stack.close()
    connection = appdb.connect(postgres_url)
    assert appdb.scalar(connection, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?",
                        (stack.database.schema,)) == 0
    connection.close()


@pytest.mark.needs("packaged-postgres")
def test_by_default_a_packaged_postgres_of_the_stacks_own_stopped_and_removed_on_close(monkeypatch):
    monkeypatch.delenv(appdb.DATABASE_URL_ENV, raising=False)
    stack = Stack.start(SMOKE, database=SCHEMA, timeline=False, broker_kind="embedded")
    try:
        server = stack.database.server
        assert stack.database.kind == "postgresql" and server.folder.is_dir()
        assert stack.database_url == server.url and f":{server.port}/" in server.url
        round_trip(stack)
        pid = server.process.pid
    finally:
        stack.close()
    assert not server.process.alive and not server.folder.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_no_database_asked_for():
    set_lang("en")
    try:
        with Stack.start(SMOKE, workers=0, timeline=False, broker_kind="embedded") as stack:
            assert stack.database_url is None
            with pytest.raises(StackError, match="has no database"):
                stack.db()
    finally:
        set_lang("pt")
