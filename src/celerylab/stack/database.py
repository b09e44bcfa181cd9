"""A stack's application database: a private PostgreSQL (a schema of a given server, or a packaged server of its own), or SQLite."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab import appdb
from celerylab.stack import packaged_postgres
from celerylab.stack.packaged_postgres import PrivatePostgres

SCHEMA_MARK = "search_path%3D"


class StackDatabase:
    """Where one stack's tasks keep their rows; ``url`` is what every process gets as $CELERYLAB_DATABASE_URL."""

    def __init__(self, url: str, schema: str | None = None, server: PrivatePostgres | None = None):
        self.url = url
        self.schema = schema
        self.server = server

    @classmethod
    def create(cls, stack_id: str, workdir: Path, statements: list[str] | tuple[str, ...] = ()) -> "StackDatabase":
        """A private schema when $CELERYLAB_DATABASE_URL is PostgreSQL; SQLite in `workdir` when it is SQLite, or when
        it is unset and no packaged PostgreSQL is installed; else a packaged PostgreSQL server of the stack's own."""
        given = os.environ.get(appdb.DATABASE_URL_ENV)
        if not given and packaged_postgres.binaries() is not None:
            server = PrivatePostgres.start()
            database = cls(server.url, server=server)
        elif given and appdb.kind(given) == "postgresql":
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
        try:
            database.run(statements)
        except BaseException:
            database.drop()
            raise
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
        """Stop the stack's own server, or drop its private schema (the SQLite file goes with the stack's folder)."""
        if self.server is not None:
            self.server.stop()
            return
        if self.schema is None:
            return
        connection = self.connect()
        try:
            appdb.execute(connection, f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        finally:
            connection.close()
