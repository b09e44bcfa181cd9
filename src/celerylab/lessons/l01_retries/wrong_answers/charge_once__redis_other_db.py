"""Keeps the key (order_id, invoice_no) in another database (db 7) of the broker's Redis server, with no expiry. Violates: "the broker's Redis (not where records live) may have lost all it held, in a restart or a failover". Blind review.
"""
import redis

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    base = app.conf.broker_url.rsplit("/", 1)[0]
    client = redis.Redis.from_url(base + "/7")
    if not client.set(f"charged:{order_id}:{invoice_no}", "1", nx=True):
        return "skipped"
    execute(connect(), "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
            (order_id, invoice_no, amount))
    return "charged"
