"""A stack's application database: SQLite in its folder, or a private PostgreSQL schema dropped on close."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab import appdb

SCHEMA_MARK = "search_path%3D"


class StackDatabase:
    """Where one stack's tasks keep their rows; ``url`` is what every process gets as $CELERYLAB_DATABASE_URL."""

    def __init__(self, url: str, schema: str | None = None):
        self.url = url
        self.schema = schema

    @classmethod
    def create(cls, stack_id: str, workdir: Path, statements: list[str] | tuple[str, ...] = ()) -> "StackDatabase":
        """A private PostgreSQL schema when $CELERYLAB_DATABASE_URL is PostgreSQL, else SQLite in `workdir`."""
        given = os.environ.get(appdb.DATABASE_URL_ENV)
        if given and appdb.kind(given) == "postgresql":
            schema = f"celerylab_{stack_id}"
            connection = appdb.connect(given)
            try:
                appdb.execute(connection, f"CREATE SCHEMA IF NOT EXISTS {schema}")
            finally:
                connection.close()
            separator = "&" if "?" in given else "?"
            database = cls(f"{given}{separator}options=-csearch_path%3D{schema}", schema)
        else:
            database = cls(f"sqlite:///{Path(workdir) / 'app.db'}")
        database.run(statements)
        return database

    @property
    def kind(self) -> str:
        return appdb.kind(self.url)

    def connect(self):
        """A new DB-API connection (autocommit; ``?`` placeholders through celerylab.appdb.execute)."""
        return appdb.connect(self.url)

    def run(self, statements: list[str] | tuple[str, ...]) -> None:
        """Execute each statement (the schema: CREATE TABLE ...), in order."""
        if not statements:
            return
        connection = self.connect()
        try:
            for statement in statements:
                appdb.execute(connection, statement)
        finally:
            connection.close()

    def drop(self) -> None:
        """Drop the private PostgreSQL schema (the SQLite file goes with the stack's folder)."""
        if self.schema is None:
            return
        connection = self.connect()
        try:
            appdb.execute(connection, f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        finally:
            connection.close()
