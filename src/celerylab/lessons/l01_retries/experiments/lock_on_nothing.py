"""Two transactions run the notes' check at once: SELECT ... FOR UPDATE the key, then INSERT it (PostgreSQL)."""
import threading
import uuid
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack


@dataclass
class Race:
    table: str
    outcomes: list[str]  # each transaction: "inserted", "skipped" or the exception it raised
    rows: int            # rows left for the key


def lock_on_nothing(stack: Stack, table: str) -> Race:
    key = f"evt-{uuid.uuid4().hex[:8]}"
    both_looked = threading.Barrier(2)
    outcomes = []

    def one_run() -> None:
        connection = stack.db()
        try:
            with appdb.transaction(connection):
                found = appdb.execute(connection, f"SELECT 1 FROM {table} WHERE event_id = ? FOR UPDATE",
                                      (key,)).fetchone()
                both_looked.wait(10)  # both have looked before either inserts
                if found is None:
                    appdb.execute(connection, f"INSERT INTO {table} (event_id) VALUES (?)", (key,))
            outcomes.append("inserted" if found is None else "skipped")
        except Exception as error:
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=one_run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return Race(table, sorted(outcomes), helpers.count(stack, f"SELECT COUNT(*) FROM {table} WHERE event_id = ?", (key,)))
