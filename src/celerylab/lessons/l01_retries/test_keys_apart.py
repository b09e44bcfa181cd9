"""The welcome check's key probe (keys_apart.py): ex.welcome's body run for many event ids, its e-mail client a recorder."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from math import comb
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


@pytest.mark.parametrize(("name", "cut"), [("sha3_256", ""), ("blake2s", ""), ("sha512", "[:64]"), ("sha384", ""),
                                         ("sha3_512", ""), ("blake2b", "")])
def test_a_whole_digest_of_a_hash_of_at_least_256_bits_tells_every_id_apart(tmp_path, name, cut):
    """SHA3-256, BLAKE2s, SHA-512's first 64 hex digits (as SHA-512/256), SHA-384, SHA3-512, BLAKE2b: keys the
    statement allows."""
    source = HANDED_THROUGH.replace("from celerylab.fakes", "import hashlib\nfrom celerylab.fakes").replace(
        'idempotency_key=f"welcome:{event_id}"',
        f'idempotency_key=hashlib.{name}(event_id.encode()).hexdigest(){cut}')
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


#: Whole digests the statement names, one per hash and size: each must be taken as a digest.
WHOLE = {
    "sha256": lambda data: hashlib.sha256(data).hexdigest(),
    "sha384": lambda data: hashlib.sha384(data).hexdigest(),
    "sha512": lambda data: hashlib.sha512(data).hexdigest(),
    "sha512_first_64": lambda data: hashlib.sha512(data).hexdigest()[:64],
    "sha3_256": lambda data: hashlib.sha3_256(data).hexdigest(),
    "sha3_384": lambda data: hashlib.sha3_384(data).hexdigest(),
    "sha3_512": lambda data: hashlib.sha3_512(data).hexdigest(),
    "blake2s": lambda data: hashlib.blake2s(data).hexdigest(),
    "blake2b": lambda data: hashlib.blake2b(data).hexdigest(),
    "blake2b_32": lambda data: hashlib.blake2b(data, digest_size=32).hexdigest(),
    "blake2b_48": lambda data: hashlib.blake2b(data, digest_size=48).hexdigest(),
    "sha256_upper": lambda data: hashlib.sha256(data).hexdigest().upper(),
}
#: Keys that are no whole digest of a hash of 256 bits or more, though hex and 64 digits or more.
NOT_WHOLE = {
    "md5_doubled": lambda data: hashlib.md5(data).hexdigest() * 2,
    "md5_zero_padded": lambda data: f"{int(hashlib.md5(data).hexdigest(), 16):064x}",
    "sha1_md5_concat": lambda data: hashlib.sha1(data).hexdigest() + hashlib.md5(data).hexdigest(),
    "sha256_cut_padded": lambda data: hashlib.sha256(data).hexdigest()[:16].rjust(64, "0"),
    "sha256_63": lambda data: hashlib.sha256(data).hexdigest()[:63],
    "shake_80": lambda data: hashlib.shake_256(data).hexdigest(40),
    "sha256_glued_to_its_start": lambda data: (lambda hex_: hex_ + hex_[:32])(hashlib.sha256(data).hexdigest()),
    "md5_padded_with_f": lambda data: hashlib.md5(data).hexdigest().ljust(64, "f"),
}


@pytest.mark.parametrize("name", sorted(WHOLE))
def test_every_whole_digest_the_statement_names_is_taken_as_one(name):
    assert all(keys_apart.whole_digest(WHOLE[name](f"7:evt-{n}".encode())) for n in range(2000))


@pytest.mark.parametrize("name", sorted(NOT_WHOLE))
def test_a_short_digest_padded_repeated_or_glued_is_no_whole_digest(name):
    assert not any(keys_apart.whole_digest(NOT_WHOLE[name](f"7:evt-{n}".encode())) for n in range(200))


def test_a_fixed_part_glued_to_a_digest_is_told_across_keys():
    """No block repeated, no run: one key looks whole; across SPREAD keys, the fixed part's positions never change."""
    fixed = "0123456789abcdef"
    keys = [hashlib.sha256(f"7:evt-{n}".encode()).hexdigest()[:48] + fixed for n in range(keys_apart.SPREAD)]
    assert all(keys_apart.whole_digest(key) for key in keys)
    spread = keys_apart.Spread()
    assert all(spread.add(key) for key in keys[:-1]) and not spread.add(keys[-1])
    assert spread.constant[64] == list(range(48, 64))
    whole = keys_apart.Spread()
    assert all(whole.add(hashlib.sha256(f"7:evt-{n}".encode()).hexdigest()) for n in range(20_000))


def test_a_right_digest_key_is_rejected_with_probability_far_below_one_in_a_billion_per_check():
    """The bounds keys_apart's comments state: per key, a repeated block or a run; per length, a constant position."""
    keys = keys_apart.COUNT + 100
    per_key = max(comb(size - keys_apart.BLOCK + 1, 2) * 16.0 ** -keys_apart.BLOCK
                  + (size - keys_apart.BLOCK + 1) * 16.0 ** (1 - keys_apart.BLOCK) for size in keys_apart.DIGEST_LENGTHS)
    spread = sum(size * 16.0 ** (1 - keys_apart.SPREAD) for size in keys_apart.DIGEST_LENGTHS)
    assert keys * per_key + spread < 1e-12


@pytest.mark.parametrize("answer", ["md5_doubled", "md5_zero_padded", "sha1_md5_concat", "sha256_cut_padded"])
def test_a_digest_of_too_few_bits_made_long_is_told(tmp_path, answer):
    user, event, key = probed(tmp_path, (WRONG / f"welcome_once__{answer}.py").read_text(encoding="utf-8"))["odd_key"]
    assert not keys_apart.holds_id(key, event)


def test_the_probe_tells_a_fixed_tail_on_a_cut_digest(tmp_path):
    source = HANDED_THROUGH.replace("from celerylab.fakes", "import hashlib\nfrom celerylab.fakes").replace(
        'idempotency_key=f"welcome:{event_id}"',
        'idempotency_key=hashlib.sha256(event_id.encode()).hexdigest()[:48] + "0123456789abcdef"')
    out = probed(tmp_path, source, count=20_000)
    user, event, key = out["odd_key"]
    assert keys_apart.holds_id(key, event) and out["constant"] == list(range(48, 64))
