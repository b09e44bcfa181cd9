"""The welcome check's key probe (keys_apart.py): ex.welcome's body run for many event ids, its e-mail client a recorder."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import pytest

from celerylab import appdb
from celerylab.lessons.l01_retries import checks, keys_apart

WRONG = Path(__file__).parent / "wrong_answers"
HANDED_THROUGH = '''
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome:{event_id}")
'''


#: A body that looks the key up in the application's database, sends with the provider's key, then records the key
#: (a right answer that runs SQL on every call).
LOOKED_UP = '''
from celerylab.appdb import connect, execute, scalar
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = f"welcome:{event_id}"
    connection = connect()
    try:
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (key,)):
            return {"skipped": True}
        receipt = send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?) ON CONFLICT DO NOTHING", (key,))
        return receipt
    finally:
        connection.close()
'''


def probed(tmp_path: Path, source: str, count: int = keys_apart.COUNT, env: dict | None = None) -> dict:
    (tmp_path / "ex_welcome.py").write_text(source, encoding="utf-8")
    env = {**os.environ, **(env or {}),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", keys_apart.__name__, "ex_welcome", str(count), "7"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_ids_are_distinct_and_some_differ_only_in_case():
    ids = [event for event, _ in zip(keys_apart.event_ids(7), range(100_000))]
    assert len(set(ids)) == len(ids)
    assert len({event.lower() for event in ids}) < len(ids)


def test_confusable_events_are_distinct_events():
    assert len(set(keys_apart.CONFUSABLE)) == len(keys_apart.CONFUSABLE)
    ids = [event for _, event in keys_apart.CONFUSABLE]
    assert len(set(ids)) == len(ids)  # one user per event id: the solution's key (the id) tells them apart


def test_a_key_handed_straight_through_tells_every_id_apart(tmp_path):
    out = probed(tmp_path, HANDED_THROUGH)
    assert "pair" not in out and "odd_key" not in out
    assert out["calls"] == keys_apart.COUNT and out["failed"] == 0


def test_a_body_that_looks_the_key_up_in_the_database_runs_every_id_in_time_on_a_database_of_the_probe(tmp_path):
    stack_db = tmp_path / "stack.db"
    with closing(sqlite3.connect(stack_db, isolation_level=None)) as connection:
        connection.execute("CREATE TABLE processed_events (event_id TEXT PRIMARY KEY, created_at TIMESTAMP)")
    out = probed(tmp_path, LOOKED_UP, env={appdb.DATABASE_URL_ENV: f"sqlite:///{stack_db}"})
    assert "pair" not in out and "odd_key" not in out
    assert out["failed"] == 0 and (out["calls"] == keys_apart.COUNT or out["cut_short"])  # a loaded machine: fewer
    with closing(sqlite3.connect(stack_db)) as connection:
        assert connection.execute("SELECT COUNT(*) FROM processed_events").fetchone()[0] == 0


@pytest.mark.parametrize("answer", ["adler32", "casefold", "crc32_salted", "md5_salted_prefix8", "sha256_mod1e8",
                                    "concat_user", "slugified", "nfkc_strip", "key_truncated_64_chars",
                                    "sha256_of_first_64_chars", "fake_digest_hex_of_id_suffix",
                                    "key_sha256_latin1_ignore", "long_ids_short_hash"])
def test_a_short_case_folded_or_joined_key_gives_two_events_one_key(tmp_path, answer):
    out = probed(tmp_path, (WRONG / f"welcome_once__{answer}.py").read_text(encoding="utf-8"))
    assert "pair" in out or "odd_key" in out
    if "pair" in out:
        first, second = out["pair"]
        assert first != second


@pytest.mark.parametrize("answer", ["sha256_64bit", "blake2b_8", "mod_1e14", "slugified", "nfkc_strip"])
def test_a_key_that_changes_the_id_or_cuts_its_digest_short_is_told(tmp_path, answer):
    user, event, key = probed(tmp_path, (WRONG / f"welcome_once__{answer}.py").read_text(encoding="utf-8"))["odd_key"]
    assert not keys_apart.holds_id(key, event)


def test_a_key_holds_the_id_whole_or_is_a_whole_sha256_digest():
    assert keys_apart.holds_id("welcome:7:evt-1-2", "evt-1-2") and keys_apart.holds_id("ab ", "ab ")
    assert keys_apart.holds_id("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "x")
    assert not keys_apart.holds_id("welcome:evt12", "evt-1-2") and not keys_apart.holds_id(None, "a")
    assert not keys_apart.holds_id("9f86d081884c7d65", "x")
    assert keys_apart.holds_id(hashlib.sha512(b"x").hexdigest(), "x")  # 128 hex digits: a whole SHA-512
    assert not keys_apart.holds_id(hashlib.sha256(b"x").hexdigest()[:63], "x")


@pytest.mark.parametrize("name", ["sha3_256", "blake2s", "sha512"])
def test_a_whole_digest_of_a_hash_of_at_least_256_bits_tells_every_id_apart(tmp_path, name):
    """SHA3-256, BLAKE2s, SHA-512's first 64 hex digits (as SHA-512/256): keys the statement allows."""
    source = HANDED_THROUGH.replace("from celerylab.fakes", "import hashlib\nfrom celerylab.fakes").replace(
        'idempotency_key=f"welcome:{event_id}"',
        f'idempotency_key=hashlib.{name}(event_id.encode()).hexdigest()[:64]')
    out = probed(tmp_path, source, count=20_000)
    assert "pair" not in out and "odd_key" not in out and out["failed"] == 0


def test_the_confusable_events_include_long_ids_shared_ends_and_characters_outside_latin_1():
    ids = [event for _, event in keys_apart.CONFUSABLE]
    assert {64, 256} <= {len(event) - 1 for event in ids if len(event) > 64}
    assert any(len(event) >= 300 for event in ids)
    assert sum(event.endswith(keys_apart.SHARED_END) for event in ids) == 2 and len(keys_apart.SHARED_END) >= 33
    outside = [event for event in ids if event.encode("latin-1", "ignore").decode("latin-1") != event]
    assert len({event.encode("latin-1", "ignore") for event in outside}) < len(outside)


def test_a_probe_out_of_time_is_no_failure_of_the_learner_and_sends_ids_it_never_ran(monkeypatch):
    def too_long(argv, **options):
        raise subprocess.TimeoutExpired(argv, options["timeout"])

    sent = []
    monkeypatch.setattr(checks.subprocess, "run", too_long)
    monkeypatch.setattr(checks, "second_event_delivers", lambda run, stack, pair: sent.append(pair) or True)
    run = SimpleNamespace(module="ex_welcome", workdir=".", expect=None)  # no criterion is recorded
    assert checks.keys_tell_apart(run, SimpleNamespace(process_env=dict))
    (first_user, first), (second_user, second) = sent[0]
    assert first != second and first.lower() == second.lower()
    ran = {event for _, event in keys_apart.CONFUSABLE} | {event for event, _ in zip(keys_apart.event_ids(7), range(1000))}
    assert not {first, second} & ran
