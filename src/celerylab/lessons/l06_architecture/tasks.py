"""Lesson 06's Celery app: the notes' e-mail and report tasks on routed queues, canvas steps, retries, good practices."""
from __future__ import annotations

import logging
import time

from celery import current_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.utils.log import get_task_logger

from celerylab.appdb import connect, execute
from celerylab.i18n import t
from celerylab.stack.appconfig import create_app

#: The compose file's layout: one queue per kind of work, one worker service per queue.
ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}

app = create_app(
    "l06_architecture",
    task_default_queue="default",
    task_routes=ROUTES,
    result_extended=True,  # the backend also keeps the worker and queue of each result
)
logger = get_task_logger(__name__)
plain_logger = logging.getLogger("l06.plain")


@app.task(name="email.send_welcome")
def send_welcome(email: str, name: str) -> dict:
    """The welcome e-mail: short. Returns when it started, to measure how long it waited."""
    started = time.time()
    logger.info("welcome e-mail to %s", email)
    return {"status": "sent", "to": email, "started_at": started}


@app.task(name="report.build_pdf", bind=True)
def build_pdf(self, student_ids: list, period: str, step: float = 0.5) -> dict:
    """The notes' PDF report: `step` seconds per student, progress in the backend."""
    for i, student_id in enumerate(student_ids, 1):
        self.update_state(state="PROGRESS", meta={"current": i, "total": len(student_ids)})
        time.sleep(step)
    return {"status": "done", "path": f"/reports/report_{period}.pdf", "total": len(student_ids)}


@app.task(name="email.send_password_reset")
def send_password_reset(email: str) -> dict:
    """The password-reset e-mail: short, and the user is waiting for it. Returns when it started."""
    return {"status": "sent", "to": email, "started_at": time.time()}


@app.task(name="report.export_grades")
def export_grades(period: str, seconds: float = 2.0) -> dict:
    """The grades export: heavy, like the PDF report."""
    time.sleep(seconds)
    return {"status": "done", "path": f"/exports/grades_{period}.csv"}


@app.task(name="l06.acks_late")
def acks_late(names: list[str]) -> dict:
    """Whether this worker acknowledges each task late (a check reads what the learner's module configured)."""
    return {name: bool(app.tasks[name].acks_late) for name in names}


def validate_rows(rows: list[int]) -> None:
    """A chunk of a CSV import: a negative row id means the chunk is corrupt."""
    bad = [row for row in rows if row < 0]
    if bad:
        raise ValueError(f"corrupt rows: {bad}")


def import_rows(rows: list[int]) -> None:
    """Imports a chunk's rows: one row of the stack database's `imported_rows` table each, with the id of the task
    that imported it."""
    task_id = current_task.request.id if current_task else None
    connection = connect()
    try:
        for row in rows:
            execute(connection, "INSERT INTO imported_rows (task_id, row_id) VALUES (?, ?)", (task_id, row))
    finally:
        connection.close()


@app.task(name="l06.long")
def long_task(seconds: float) -> float:
    """A long task (an export, a report): sleeps `seconds`; returns when it started."""
    started = time.time()
    time.sleep(seconds)
    return started


@app.task(name="l06.short")
def short_task(n: int) -> float:
    """A short task: returns when it started."""
    return time.time()


# -- canvas: the notes' CSV import pipeline, and a group of chunks ----------------------------
@app.task(name="import.validate_csv")
def validate_csv(text: str) -> list[list[str]]:
    rows = [line.split(",") for line in text.strip().splitlines()[1:]]
    bad = [i for i, row in enumerate(rows, 2) if len(row) != 2 or "@" not in row[1]]
    if bad:
        raise ValueError(f"invalid lines: {bad}")
    return rows


@app.task(name="import.transform")
def transform(rows: list[list[str]]) -> list[dict]:
    return [{"name": name.strip().title(), "email": email.strip().lower()} for name, email in rows]


@app.task(name="import.insert")
def insert(users: list[dict]) -> int:
    """Stands for the database insert: returns how many rows it would write."""
    return len(users)


@app.task(name="import.notify")
def notify(inserted: int, email: str) -> str:
    """The notice the import sends, in the worker's language (it inherits the notebook's)."""
    return t("l06.import.notified", email=email, count=inserted)


@app.task(name="data.process_chunk")
def process_chunk(chunk: int) -> int:
    """One chunk of a big job: its own square (chunk 13 is a corrupt file)."""
    time.sleep(0.2)
    if chunk == 13:
        raise ValueError(f"chunk {chunk}: corrupt file")
    return chunk * chunk


@app.task(name="data.consolidate")
def consolidate(results: list[int]) -> dict:
    return {"chunks": len(results), "total": sum(results)}


@app.task(name="data.chord_failed")
def chord_failed(request, exc, traceback) -> None:
    """A chord's errback: Celery calls a task of this shape in the worker, with the failure's request and error."""
    execute(connect(), "INSERT INTO errbacks (kind, error) VALUES (?, ?)", ("plain", f"{type(exc).__name__}: {exc}"))


@app.task(name="data.chord_failed_bound", bind=True)
def chord_failed_bound(self, request, exc, traceback) -> None:
    """The same errback with bind=True: Celery sends it as a task with the failed task's id as its only argument."""
    execute(connect(), "INSERT INTO errbacks (kind, error) VALUES (?, ?)", ("bound", f"{type(exc).__name__}: {exc}"))


# -- Flower: a task that retries, a task that fails ---------------------------------------------
@app.task(name="payment.capture", bind=True, max_retries=2, default_retry_delay=0.2)
def capture(self, order_id: int) -> str:
    """The payment gateway times out twice, then answers."""
    if self.request.retries < 2:
        raise self.retry(exc=TimeoutError(f"gateway timeout (order {order_id})"))
    return f"captured {order_id}"


@app.task(name="payment.refund")
def refund(order_id: int) -> str:
    """A permanent error: the order does not exist."""
    raise KeyError(f"order {order_id}")


# -- good practices -----------------------------------------------------------------------------
def plan_of(user_id: int) -> str:
    return execute(connect(), "SELECT plan FROM users WHERE id = ?", (user_id,)).fetchone()[0]


@app.task(name="billing.invoice_snapshot")
def invoice_snapshot(user: dict) -> str:
    """Receives the whole user as it was when enqueued."""
    return f"invoice for {user['name']}: plan {user['plan']}"


@app.task(name="billing.invoice")
def invoice(user_id: int) -> str:
    """Receives the id and reads the user when it runs."""
    return f"invoice for user {user_id}: plan {plan_of(user_id)}"


@app.task(name="data.sync_erp", soft_time_limit=1, time_limit=2)
def sync_erp(hang: float, stubborn: bool = False) -> str:
    """Calls an ERP that may hang: the soft limit interrupts it; a stubborn handler meets the hard limit."""
    try:
        time.sleep(hang)
        return "synced"
    except SoftTimeLimitExceeded:
        logger.warning("soft time limit: closing the ERP session")
        if stubborn:
            time.sleep(hang)  # ignores the interruption and waits again
        raise


@app.task(name="data.import_file", bind=True)
def import_file(self, file_id: int) -> int:
    """Logs the same line three times: task logger, plain logger, plain logger with the notes' `extra`."""
    logger.info("importing file %s", file_id)
    plain_logger.warning("importing file %s", file_id)
    plain_logger.warning("importing file %s (extra)", file_id, extra={"tarefa_id": self.request.id})
    return file_id
