"""Keeps the charged (order, invoice) pairs in a JSON file in the worker user's home folder: a new machine has none and charges again. Violates: "a deploy has replaced the worker with a new one, on another machine (nothing the old one kept in memory or on its disk is there)". Blind review."""
import json
import os

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app

LEDGER = os.path.expanduser("~/.charged_invoices.json")


def _load() -> list:
    try:
        with open(LEDGER) as file:
            return json.load(file)
    except (OSError, ValueError):
        return []


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    charged = _load()
    if [order_id, invoice_no] in charged:
        return "skipped"
    connection = connect()
    with transaction(connection):
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    charged.append([order_id, invoice_no])
    with open(LEDGER, "w") as file:
        json.dump(charged, file)
    return "charged"
