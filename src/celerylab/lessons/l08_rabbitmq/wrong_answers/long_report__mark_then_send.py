"""Marks a part done in the app's database, then sends the next part: a crash between the mark and the send finds the part done on redelivery, and the rest of the report is never sent. Violates: "for each, the parts logged cover its seconds, and at most one part is logged twice". Blind review.
"""
from celerylab import appdb
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: one message and one row in the app's database per part; a crash redoes the part that was running.


def done(run: str, part: int) -> bool:
    connection = appdb.connect()
    try:
        appdb.execute(connection, "CREATE TABLE IF NOT EXISTS report_done (run TEXT, part INTEGER)")
        return appdb.execute(connection, "SELECT 1 FROM report_done WHERE run = ? AND part = ?",
                             (run, part)).fetchone() is not None
    finally:
        connection.close()


def mark(run: str, part: int) -> None:
    connection = appdb.connect()
    try:
        with appdb.transaction(connection):
            appdb.execute(connection, "INSERT INTO report_done (run, part) VALUES (?, ?)", (run, part))
    finally:
        connection.close()


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float, run: str) -> None:
    if done(run, part):
        return
    crunch(label, part, min(PART, seconds - part * PART))
    mark(run, part)
    if (part + 1) * PART < seconds - 1e-12:
        report_part.delay(label, part + 1, seconds, run)


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    report_part.delay(label, 0, seconds, self.request.id)
