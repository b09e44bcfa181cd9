"""The application's own job table: one row per job, written before the message and by the task's signals."""
from __future__ import annotations

import json
import os
import uuid

from celerylab import appdb

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, owner TEXT, kind TEXT, state TEXT,"
    " progress INTEGER, total INTEGER, result TEXT, error TEXT, cancel_requested INTEGER DEFAULT 0)",
]
FINISHED = ("done", "failed", "revoked", "cancelled")
COLUMNS = ("id", "owner", "kind", "state", "progress", "total", "result", "error", "cancel_requested")


def _run(sql: str, params: tuple, db=None):
    if db is None and not os.environ.get(appdb.DATABASE_URL_ENV):
        return None  # a process without the application's database (a bare worker) keeps no rows
    connection = db or appdb.connect()
    try:
        cursor = appdb.execute(connection, sql, params)
        return cursor.fetchone() if sql.startswith("SELECT") else None
    finally:
        if db is None:
            connection.close()


def create(job_id: str, owner: str, kind: str, db=None) -> None:
    """The row that says the application issued this id: state `queued`, before anything is sent."""
    _run("INSERT INTO jobs (id, owner, kind, state, progress) VALUES (?, ?, ?, 'queued', 0)",
         (job_id, owner, kind), db)


def get(job_id: str, db=None) -> dict | None:
    """The job's row as a dict (result decoded), or None for an id the application never issued."""
    row = _run(f"SELECT {', '.join(COLUMNS)} FROM jobs WHERE id = ?", (job_id,), db)
    if row is None:
        return None
    job = dict(zip(COLUMNS, row))
    job["result"] = json.loads(job["result"]) if job["result"] else None
    job["cancel_requested"] = bool(job["cancel_requested"])
    return job


def set_state(job_id: str, state: str, db=None, *, unless: tuple = ()) -> None:
    """Move the job to `state`, except from the states in `unless` (a cancelled job stays cancelled)."""
    guard = f" AND state NOT IN ({', '.join('?' * len(unless))})" if unless else ""
    _run(f"UPDATE jobs SET state = ? WHERE id = ?{guard}", (state, job_id, *unless), db)


def finish(job_id: str, result, db=None) -> None:
    """done + the task's result, kept here for as long as the application wants it."""
    _run("UPDATE jobs SET state = 'done', result = ? WHERE id = ? AND state <> 'cancelled'",
         (json.dumps(result), job_id), db)


def fail(job_id: str, error: str, db=None) -> None:
    _run("UPDATE jobs SET state = 'failed', error = ? WHERE id = ?", (error, job_id), db)


def progress(job_id: str, current: int, total: int, db=None) -> None:
    _run("UPDATE jobs SET progress = ?, total = ? WHERE id = ?", (current, total, job_id), db)


def request_cancel(job_id: str, db=None) -> None:
    """Ask a job to stop: the task reads the flag between steps (cooperative cancellation)."""
    _run("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (job_id,), db)


def cancel_requested(job_id: str, db=None) -> bool:
    row = _run("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,), db)
    return bool(row and row[0])


def enqueue(task, owner: str, args: tuple, db=None, **options) -> str:
    """Write the row, then publish with the row's id; if publishing fails, the row says so."""
    job_id = str(uuid.uuid4())
    create(job_id, owner, task.name, db)
    try:
        task.apply_async(args, task_id=job_id, **options)
    except Exception as error:
        fail(job_id, repr(error), db)
        raise
    return job_id
