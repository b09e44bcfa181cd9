"""Whether ex.welcome tells events apart by the Idempotency-Key it hands the provider, for many events at once.

Run by the welcome check as a process of its own (``python -m celerylab.lessons.l01_retries.keys_apart MODULE COUNT
USER``), with the workers' environment and folder: it imports the answer's module with `send_email` replaced by a
recorder (nothing reaches a provider) and the application's database a throwaway one of its own (throwaway_database:
nothing it writes reaches the stack's database, where it would read as e-mails already sent), runs ex.welcome's
body (its task's `run`, the retry policy's wrapper included) for the confusable events (CONFUSABLE), then for
distinct event ids of user USER, COUNT calls in all or as many as SECONDS allow, and prints, as its last line, the
first two events (``[user, event id]``) whose e-mails carry one key (JSON: {"pair": [first, second], "key": key} or
no "pair"), the first event whose key neither holds its id whole nor looks like a whole hex digest ("odd_key":
[user, event, key]: holds_id; or, once SPREAD digest keys of one length are seen, the first key whose hex positions
listed in "constant" held one digit in every digest key of that length: Spread), how many ids it ran and how many
raised; it stops at the first of those two.

A key of 32 bits or fewer (8 hex digits of a digest, salted or not, a crc32 or adler32, a digest taken modulo 10^8)
is the same for some two of COUNT ids once COUNT is well past the birthday bound (2^16 = 65 536 for 32 bits: at
400 000 ids, 1 - e^-18.6); so are keys that fold case: the ids include ones that differ only in case.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing

#: How many distinct event ids the check runs ex.welcome's body for (about 2 s for a key handed straight through,
#: about 20 s for a body that looks the key up in the database and records it, on the probe's throwaway one).
COUNT = 400_000
#: The most the probe spends calling the body, in seconds: past it, it stops and tells what it found in the ids it ran
#: (a body slower than about 150 us per call runs fewer than COUNT ids).
SECONDS = 60.0
#: Ids that differ only in case: one event each.
CASED = ("signup-a", "order-x1", "evt-b7")
#: Lengths of long event ids' common start: ids that differ only past their 64th character, and past their 256th
#: (a key cut to 64 or 256 characters, or a digest of only their start, reads them alike).
LONG = (64, 256, 700)
#: The common end of ids that differ only in their first character: 40 characters (a key made of an id's last 32
#: characters or bytes, or of a digest of them, reads them alike).
SHARED_END = "-" + "e" * 39
#: Distinct events (user, event id) a key that changes the id reads alike: long ids differing only past their 64th and
#: 256th character (LONG), ids sharing their last 40 characters (SHARED_END), ids differing only in characters outside
#: Latin-1 (emoji, CJK), ids that differ only in punctuation or
#: white space, ids that Unicode normalisation (NFC, NFKC) makes one, and a user id written before or after the event
#: id with nothing between them (user 1's "2ab" and user 12's "ab": "12ab"; user 2's "ab1" and user 12's "ab": "ab12").
CONFUSABLE = ((7, "evt-1-2"), (7, "evt-12"), (7, "evt_12"), (7, "evt.12"), (7, "evt 12"), (7, "evt12"),
              (7, "xy"), (7, "xy "), (7, " xy"), (7, "xy\t"), (7, "xy\n"),
              (7, "\ufb01le"), (7, "file"), (7, "\uff21b"), (7, "Ab"), (7, "\u2460"), (7, "1"),
              (7, "caf\u00e9"), (7, "cafe\u0301"),
              (1, "2ab"), (12, "ab"), (2, "ab1"),
              *((7, f"{'n' * length}{tail}") for length in LONG for tail in "ab"),
              *((7, f"{head}{SHARED_END}") for head in "ab"),
              *((7, f"evt-{char}") for char in ("\U0001F600", "\U0001F601", "\u4e2d", "\u6587")))
#: A key may be the whole hex digest (of a text holding the event id whole, or of a value the application keeps for
#: the event in its database) of a cryptographic hash of 256 bits or more at its full size: SHA-256, SHA3-256,
#: SHA-512/256, BLAKE2s (64 hex digits); SHA-384, SHA3-384 (96); SHA-512, SHA3-512, BLAKE2b (128).
DIGEST_LENGTHS = (64, 96, 128)
HEX = re.compile(r"[0-9a-fA-F]+")
#: What a whole digest looks like, key by key: no block of BLOCK hex digits twice in it (a shorter digest written twice,
#: or glued to a copy of itself), no run of BLOCK equal digits (padding). For a random key of L digits, a repeated
#: block has probability at most C(L - BLOCK + 1, 2) * 16^-BLOCK (two windows, overlapping or not, are equal with
#: probability 16^-BLOCK), a run (L - BLOCK + 1) * 16^(1 - BLOCK): with BLOCK = 20, 4.9e-21 + 1.4e-21 for L = 128,
#: 2.5e-15 over the 400 100 keys a check reads at most. (16 digits would do for one key: 6.4e-17 + 4.3e-17 at L = 64;
#: summed over 400 100 keys of 128 digits it reaches 1.8e-10, too near 1e-9.)
BLOCK = 20
RUN = re.compile(r"(.)\1{%d}" % (BLOCK - 1))
#: What whole digests look like across keys: no hex position holding the same digit in every key of one length, once
#: SPREAD keys of that length are seen (padding, a fixed part glued on). For random keys of L digits, at most
#: L * 16^(1 - SPREAD) = 1.1e-16 for L = 128: with the above, a right answer is rejected with probability < 3e-15 per
#: check.
SPREAD = 16


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


def events(user: int) -> Iterator[tuple[int, str]]:
    """The events the probe runs, in order: CONFUSABLE's, then `user`'s event_ids."""
    yield from dict.fromkeys(CONFUSABLE)
    yield from ((user, event) for event in event_ids(user))


def whole_digest(key: str) -> bool:
    """Whether a key looks like a whole hex digest (DIGEST_LENGTHS): of one of those lengths, hex only, no block of
    BLOCK digits twice, no run of BLOCK equal digits."""
    if len(key) not in DIGEST_LENGTHS or HEX.fullmatch(key) is None:
        return False
    key = key.lower()
    blocks = {key[start:start + BLOCK] for start in range(len(key) - BLOCK + 1)}
    return len(blocks) == len(key) - BLOCK + 1 and RUN.search(key) is None


def holds_id(key: str | None, event: str) -> bool:
    """Whether a key is one the statement allows: it holds the event id whole (no character changed, removed or
    normalised), or it looks like the whole hex digest of a hash of 256 bits or more (whole_digest)."""
    return key is not None and (event in key or whole_digest(key))


class Spread:
    """The hex positions that held one digit in every digest key seen so far, per key length (a whole digest's
    positions vary: see SPREAD)."""

    def __init__(self) -> None:
        self.first: dict[int, str] = {}
        self.constant: dict[int, list[int]] = {}
        self.seen: dict[int, int] = {}

    def add(self, key: str) -> bool:
        """Count one digest key; False once SPREAD keys of its length are seen and some position never changed."""
        key, size = key.lower(), len(key)
        first = self.first.setdefault(size, key)
        positions = self.constant.setdefault(size, list(range(size)))
        if positions:
            self.constant[size] = positions = [at for at in positions if key[at] == first[at]]
        self.seen[size] = self.seen.get(size, 0) + 1
        return not (positions and self.seen[size] >= SPREAD)


class _Kept(sqlite3.Connection):
    """The throwaway database's one connection, handed to every caller: closing it keeps it (and what it holds)."""

    def close(self) -> None:
        pass


def throwaway_database(folder: str) -> None:
    """The application's database, for this process only: $CELERYLAB_DATABASE_URL names a new SQLite file in
    `folder` holding the lesson's tables (what a body that reads the URL itself opens), and appdb.connect() (what the
    lesson's bodies call) hands one connection to an in-memory copy of those tables, without the cost of opening a
    file 400 000 times."""
    from celerylab import appdb
    from celerylab.lessons.l01_retries.helpers import SCHEMA

    own = f"sqlite:///{os.path.join(folder, 'keys-apart.db')}"
    os.environ[appdb.DATABASE_URL_ENV] = own
    with closing(sqlite3.connect(own.removeprefix("sqlite:///"), isolation_level=None)) as file:
        for statement in SCHEMA:
            file.execute(statement)
    kept = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False, factory=_Kept)
    for statement in SCHEMA:
        kept.execute(statement)
    connect = appdb.connect

    def throwaway(url: str | None = None):
        return kept if url in (None, own) else connect(url)

    appdb.connect = throwaway


def probe(module_name: str, count: int, user: int, seconds: float = SECONDS) -> dict:
    """The first two of the events (`events`) whose e-mails carry one Idempotency-Key, and the first whose key does
    not hold its id (see the module's docstring); at most `count` calls, and none started after `seconds`."""
    from celerylab.fakes import clients

    sent: list[str | None] = []

    def recorder(to, subject, body="", *, idempotency_key=None, timeout=clients.CLIENT_TIMEOUT):
        sent.append(idempotency_key)
        return {"id": len(sent)}

    clients.send_email = recorder  # before the answer imports it
    os.environ.setdefault(clients.EMAIL_URL_ENV, "http://127.0.0.1:9")  # nothing is sent there
    with tempfile.TemporaryDirectory(prefix="keys-apart-") as folder:
        throwaway_database(folder)
        task = welcome_task(importlib.import_module(module_name))
        out: dict = {"calls": 0, "failed": 0}
        if task is None:
            return out
        run, first, spread = task.run, dict[str, list](), Spread()
        started = time.monotonic()
        for event in events(user):
            if out["calls"] >= count or time.monotonic() - started > seconds:
                out["cut_short"] = out["calls"] < count
                break
            out["calls"] += 1
            sent.clear()
            try:
                run(*event)
            except Exception:  # noqa: BLE001 - an id the body does not send for tells nothing about keys
                out["failed"] += 1
                continue
            for key in dict.fromkeys(sent):
                if "odd_key" not in out and not holds_id(key, event[1]):
                    out["odd_key"] = [*event, key]
                elif "odd_key" not in out and key is not None and event[1] not in key and not spread.add(key):
                    out["odd_key"] = [*event, key]
                    out["constant"] = spread.constant[len(key)]
                if key is not None and first.setdefault(key, list(event)) != list(event):
                    out.update(pair=[first[key], list(event)], key=key)
                    break
            if "pair" in out or "odd_key" in out:  # the check asks no more of the probe
                break
        out["seconds"] = round(time.monotonic() - started, 2)
        return out


if __name__ == "__main__":
    print(json.dumps(probe(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
