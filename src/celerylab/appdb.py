"""The application's own database for the lessons: SQLite by default, PostgreSQL when a URL is given."""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager

DATABASE_URL_ENV = "CELERYLAB_DATABASE_URL"


def database_url() -> str:
    return os.environ.get(DATABASE_URL_ENV) or "sqlite:///celerylab.db"


def kind(url: str | None = None) -> str:
    return "postgresql" if (url or database_url()).startswith(("postgres://", "postgresql://")) else "sqlite"


def connect(url: str | None = None):
    """A DB-API connection; SQL in this project uses ``?`` placeholders (converted for PostgreSQL)."""
    url = url or database_url()
    if kind(url) == "postgresql":
        import psycopg

        return psycopg.connect(url, autocommit=True)
    connection = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=10, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    return connection


def execute(connection, sql: str, params: tuple = ()):
    """Run one statement; ``?`` placeholders work on both databases."""
    if not isinstance(connection, sqlite3.Connection):
        sql = sql.replace("?", "%s")
    return connection.execute(sql, params)


@contextmanager
def transaction(connection):
    """BEGIN ... COMMIT, or ROLLBACK if the block raises (the effect and its record live or die together)."""
    if isinstance(connection, sqlite3.Connection):
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    else:
        with connection.transaction():
            yield connection


def scalar(connection, sql: str, params: tuple = ()):
    row = execute(connection, sql, params).fetchone()
    return row[0] if row else None
