"""Key (order, invoice) kept in Redis, the broker, with no expiry: it lives outside the database that holds the charges, so a broker restart, flush or failover forgets it and the reconciliation charges again; and the key is set before the charge commits (a crash in between loses the charge). Violates: "No cleanup touches `invoice_charges`; in months, every key set to expire within weeks has expired, and the broker's Redis (not where records live) may have lost all it held, in a restart or a failover." Blind review."""
import os

import redis

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app
from celerylab.stack.appconfig import BROKER_ENV


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    client = redis.Redis.from_url(os.environ[BROKER_ENV])
    if not client.set(f"charge:{order_id}:{invoice_no}", "1", nx=True):
        return "skipped"
    execute(connect(), "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
            (order_id, invoice_no, amount))
    return "charged"
