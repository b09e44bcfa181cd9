"""Whether ex.welcome tells events apart by the Idempotency-Key it hands the provider, for many events at once.

Run by the welcome check as a process of its own (``python -m celerylab.lessons.l01_retries.keys_apart MODULE COUNT
USER``), with the workers' environment and folder: it imports the answer's module with `send_email` replaced by a
recorder (nothing reaches a provider), runs ex.welcome's body (its task's `run`, the retry policy's wrapper included)
for COUNT distinct event ids of user USER, and prints, as its last line, the first two ids whose e-mails carry one
key (JSON: {"pair": [first, second], "key": key} or no "pair"), how many ids it ran and how many raised.

A key of 32 bits or fewer (8 hex digits of a digest, salted or not, a crc32 or adler32, a digest taken modulo 10^8)
is the same for some two of COUNT ids once COUNT is well past the birthday bound (2^16 = 65 536 for 32 bits: at
400 000 ids, 1 - e^-18.6); so are keys that fold case: the ids include ones that differ only in case.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time
from collections.abc import Iterator

#: How many distinct event ids the check runs ex.welcome's body for (about 2 s for a key handed straight through).
COUNT = 400_000
#: Ids that differ only in case: one event each.
CASED = ("signup-a", "order-x1", "evt-b7")


def event_ids(user: int) -> Iterator[str]:
    """Distinct event ids, without end, as senders make them: ids that differ only in case, then, for n = 0, 1, ...,
    a short counter id, a long one with the user's prefix, a hex id and its upper-case twin."""
    for word in CASED:
        yield from (word, word.upper(), word.capitalize())
    n = 0
    while True:
        hexid = hashlib.sha1(str(n).encode()).hexdigest()[:12]
        yield f"signup-{n}"
        yield f"user-{user}:welcome-after-signup:{n}"
        yield f"evt-{hexid}"
        yield f"EVT-{hexid.upper()}"
        n += 1


def welcome_task(module):
    """ex.welcome as the module defines it (a task named ex.welcome in its globals, or in an app's registry there)."""
    for value in vars(module).values():
        if getattr(value, "name", None) == "ex.welcome" and callable(getattr(value, "run", None)):
            return value
    for value in vars(module).values():
        tasks = getattr(value, "tasks", None)
        if isinstance(tasks, dict) and tasks.get("ex.welcome") is not None:
            return tasks["ex.welcome"]
    return None


def probe(module_name: str, count: int, user: int) -> dict:
    """The first two of `count` ids whose e-mails carry one Idempotency-Key (see the module's docstring)."""
    from celerylab.fakes import clients

    sent: list[str | None] = []

    def recorder(to, subject, body="", *, idempotency_key=None, timeout=clients.CLIENT_TIMEOUT):
        sent.append(idempotency_key)
        return {"id": len(sent)}

    clients.send_email = recorder  # before the answer imports it
    os.environ.setdefault(clients.EMAIL_URL_ENV, "http://127.0.0.1:9")  # nothing is sent there
    task = welcome_task(importlib.import_module(module_name))
    out: dict = {"calls": 0, "failed": 0}
    if task is None:
        return out
    run, first = task.run, dict[str, str]()
    started = time.monotonic()
    for event in event_ids(user):
        if out["calls"] >= count:
            break
        out["calls"] += 1
        sent.clear()
        try:
            run(user, event)
        except Exception:  # noqa: BLE001 - an id the body does not send for tells nothing about keys
            out["failed"] += 1
            continue
        for key in dict.fromkeys(sent):
            if key is not None and first.setdefault(key, event) != event:
                out.update(pair=[first[key], event], key=key)
                break
        if "pair" in out:
            break
    out["seconds"] = round(time.monotonic() - started, 2)
    return out


if __name__ == "__main__":
    print(json.dumps(probe(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
