"""database_clock: a worker started with $CELERYLAB_DATABASE_CLOCK_DAYS reads SQLite's 'now' that many days ahead, in
the pool's forked children too; without it, SQLite keeps the real clock."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

from celerylab.stack import database_clock

PROBE = """
import json, os, sqlite3
import celerylab.lessons.l01_retries.tasks  # installs it, as a worker's import of lesson 01's app does
read = lambda: sqlite3.connect(":memory:").execute("SELECT CURRENT_DATE, strftime('%s', 'now')").fetchone()
reader, writer = os.pipe()
if os.fork() == 0:
    os.write(writer, json.dumps(read()).encode()); os._exit(0)
os.wait()
print(json.dumps({"parent": read(), "child": json.loads(os.read(reader, 1000))}))
"""


def sqlite_now(days: str | None) -> dict:
    env = {key: value for key, value in os.environ.items() if key != database_clock.DAYS_ENV}
    if days:
        env[database_clock.DAYS_ENV] = days
    found = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True,
                           timeout=120)
    return json.loads(found.stdout.strip().splitlines()[-1])


def test_sqlite_reads_the_moved_day_in_the_worker_and_its_children():
    days = 400 + (7 * 3600 + 23 * 60 + 31) / 86400
    read = sqlite_now(str(days))
    for process in ("parent", "child"):
        day, seconds = read[process]
        expected = datetime.now(timezone.utc).timestamp() + days * 86400
        assert abs(int(seconds) - expected) < 60
        assert day == datetime.fromtimestamp(int(seconds), timezone.utc).date().isoformat()
        assert day != datetime.now(timezone.utc).date().isoformat()


def test_without_the_variable_sqlite_keeps_the_real_clock():
    day, seconds = sqlite_now(None)["parent"]
    assert abs(int(seconds) - datetime.now(timezone.utc).timestamp()) < 60
    assert day in {(datetime.now(timezone.utc) + timedelta(minutes=m)).date().isoformat() for m in (-1, 0)}
