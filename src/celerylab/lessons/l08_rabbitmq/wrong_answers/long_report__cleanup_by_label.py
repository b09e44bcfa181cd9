"""Once a report is over, deletes the done marks of every report of its label, its own included: a copy of a part sent again by a crash, or a report of the same label still running, finds no mark and redoes its part. Violates: "the parts of both reports, every line counted, add up to exactly their 3 s (nothing lost, nothing redone)". Blind review.
"""
from celery import chain

from celerylab import appdb
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5  # seconds of work per message: far below the 3 s timeout
# Cost: one message and one row in the app's database per part; a crash redoes the part that was running, and the
# marks of a label are deleted once one of its reports is over (the table never grows).


def query(sql: str, args: tuple) -> list:
    connection = appdb.connect()
    try:
        with appdb.transaction(connection):
            appdb.execute(connection, "CREATE TABLE IF NOT EXISTS report_marks (label TEXT, run TEXT, part INTEGER)")
            return appdb.execute(connection, sql, args).fetchall()
    finally:
        connection.close()


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float, run: str, last: bool) -> None:
    if query("SELECT 1 FROM report_marks WHERE run = ? AND part = ?", (run, part)):
        return  # a copy of a part already done
    crunch(label, part, seconds)
    query("INSERT INTO report_marks (label, run, part) VALUES (?, ?, ?)", (label, run, part))
    if last:  # the report is over: its label's marks go
        query("DELETE FROM report_marks WHERE label = ?", (label,))


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    sizes, done = [], 0.0
    while done < seconds:
        sizes.append(min(PART, seconds - done))
        done += sizes[-1]
    steps = [report_part.si(label, part, size, self.request.id, part == len(sizes) - 1)
             for part, size in enumerate(sizes)]
    chain(steps).apply_async()
