"""The lesson's stack with the database asked for: the one its processes get, and what is left of it once it closes."""
import os
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers


@dataclass
class PrivateDatabase:
    asked: str                # the kind of database $CELERYLAB_DATABASE_URL asked for ("-": nothing asked)
    given: str                # the kind of database every process of the stack got
    own_server: bool          # a PostgreSQL server of the stack's own, started and stopped with it
    private_schema: bool      # a schema of its own on the PostgreSQL server asked for
    schemas_left: int | None  # that schema still on the server once the stack closed (None: no schema)
    after_close: str          # what a query at the stack's database URL got once the stack closed


def private_database(url: str | None = None) -> PrivateDatabase:
    url = url or os.environ.get(appdb.DATABASE_URL_ENV)  # None: what this kernel's environment asks for
    with helpers.database_asked(url):
        stack = helpers.start(timeline=False)
    given = stack.process_env()[appdb.DATABASE_URL_ENV]  # what the worker and the services got
    schema, own_server = stack.database.schema, stack.database.server is not None
    stack.close()
    try:
        connection = appdb.connect(given)
        after_close = f"{appdb.scalar(connection, 'SELECT COUNT(*) FROM runs')} rows"
        connection.close()
    except Exception as error:  # the database is gone: which error says so
        after_close = type(error).__name__
    left = None
    if schema:
        server = appdb.connect(url)
        left = appdb.scalar(server, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?",
                            (schema,))
        server.close()
    return PrivateDatabase(appdb.kind(url) if url else "-", appdb.kind(given), own_server, schema is not None,
                           left, after_close)
