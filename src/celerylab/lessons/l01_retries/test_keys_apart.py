"""The welcome check's key probe (keys_apart.py): ex.welcome's body run for many event ids, its e-mail client a recorder."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from celerylab.lessons.l01_retries import keys_apart

WRONG = Path(__file__).parent / "wrong_answers"
HANDED_THROUGH = '''
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome:{event_id}")
'''


def probed(tmp_path: Path, source: str, count: int = keys_apart.COUNT) -> dict:
    (tmp_path / "ex_welcome.py").write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", keys_apart.__name__, "ex_welcome", str(count), "7"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_ids_are_distinct_and_some_differ_only_in_case():
    ids = [event for event, _ in zip(keys_apart.event_ids(7), range(100_000))]
    assert len(set(ids)) == len(ids)
    assert len({event.lower() for event in ids}) < len(ids)


def test_a_key_handed_straight_through_tells_every_id_apart(tmp_path):
    out = probed(tmp_path, HANDED_THROUGH)
    assert "pair" not in out and out["calls"] == keys_apart.COUNT and out["failed"] == 0


@pytest.mark.parametrize("answer", ["adler32", "casefold", "crc32_salted", "md5_salted_prefix8", "sha256_mod1e8"])
def test_a_short_or_case_folded_key_gives_two_ids_one_key(tmp_path, answer):
    out = probed(tmp_path, (WRONG / f"welcome_once__{answer}.py").read_text(encoding="utf-8"))
    first, second = out["pair"]
    assert first != second
