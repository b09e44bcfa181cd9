"""Lesson 03's Celery app: misspelled retry settings, a package whose scheduled module is left out, JSON probes."""
from __future__ import annotations

from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("l03_silent_defects", include=[f"{SHOP}.emails"])
# The incident: two names that are not Celery settings. Accepted, stored, and read by nothing.
app.conf.update(task_max_retries=3, task_default_retry_delay=60)
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
}


@app.task(bind=True, name="l03.send_invoice")
def send_invoice(self, invoice_id: int) -> None:
    """Declares no retry options: retries with Celery's defaults (or whatever reaches the class)."""
    try:
        raise ConnectionError("billing API down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)


@app.task(bind=True, name="l03.welcome", default_retry_delay=30)
def welcome(self, user_id: int) -> None:
    """Declares its own retry delay, 30 s, in the decorator."""
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)


def describe_value(value) -> str:
    """A text description of a value, type by type (always JSON-safe)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe_value(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return f"{type(value).__name__} {value!r}"


@app.task(name="l03.describe")
def describe(value) -> str:
    """Say what arrived in the worker: type and value."""
    return describe_value(value)


@app.task(name="l03.lookup")
def lookup(data: dict, key):
    """data[key], as the notes' third route does."""
    return data[key]


@app.task(name="l03.returns")
def returns(kind: str):
    """Return a value of the given kind, serializable or not."""
    return {"set": {1, 2}, "tuple": (1, 2), "object": object(), "int_keys": {1: "a"}}[kind]


@app.task(name="l03.after")
def after(*args) -> str:
    """A callback: says how many arguments reached it (a signature made with .s() gets the parent's result)."""
    return f"after ran with {len(args)} argument(s)"
