"""CL307: a task sent inside a transaction, and once after it."""
import sqlite3

from audit_apps.base import make_app

app = make_app("cl307")


@app.task(name="cl307.read_user")
def read_user(user_id: int):
    return user_id


class transaction:  # noqa: N801 - stands for appdb.transaction / django.db.transaction.atomic
    def __init__(self, connection):
        self.connection = connection

    def __enter__(self):
        return self.connection

    def __exit__(self, *exc):
        self.connection.commit()


def create_user(connection: sqlite3.Connection, user_id: int):
    with transaction(connection):
        connection.execute("INSERT INTO users (id) VALUES (?)", (user_id,))
        read_user.delay(user_id)          # the bug: sent before the COMMIT
    read_user.delay(user_id)              # the fix: after it
