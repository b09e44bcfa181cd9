"""Keeps the business key in the result backend's Redis with a 30-day expiry, so it survives the cleanup and the restart in the check but is gone before a reconciliation months later, which charges again. Violates: "(c) months later — a cleanup has emptied `processed_events` and the worker has restarted (a deploy) —, a reconciliation sends the first invoice again as a **new task** (another id; the same order and invoice number, the amount written another way, `99.9` for `99.90`): `SUCCESS`, and still **1** charge." Blind review.

"processed_events gets cleaned, so move the key out of the database": SET NX after the commit,
with a TTL "long enough". Redis without persistence also loses it on a broker restart.
"""
from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app

KEY_TTL = 30 * 24 * 3600  # a month is longer than any retry or redelivery window


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    redis = self.app.backend.client
    key = f"charged:{order_id}:{invoice_no}"
    if redis.get(key):
        return "skipped"
    connection = connect()
    with transaction(connection):
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    redis.set(key, self.request.id, ex=KEY_TTL)
    return "charged"
