"""Lesson 05's schedule check without a live stack: the probe reads the schedule as Beat stores it and grades
stock-sync by the real time between its runs (the probe in a process of its own, on an answer's module)."""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from celerylab.lessons.l05_beat import checks

UTC = timezone.utc
ANSWER = '''
from datetime import timedelta
from zoneinfo import ZoneInfo

from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app


class sao_paulo_crontab(crontab):
    tz = ZoneInfo("America/Sao_Paulo")


def cached_zone(**fields):
    cron = crontab(**fields)
    cron.tz = ZoneInfo("America/Sao_Paulo")  # the instance's own attribute: pickle does not keep it
    return cron


zoned = {zoned}
app.conf.beat_schedule = {{
    "daily-report": {{"task": "report.build_daily", "schedule": zoned(hour=6, minute=0)}},
    "stock-sync": {{"task": "stock.sync", "schedule": {sync}, "args": ("main_supplier",)}},
}}
'''


def probed(tmp_path: Path, zoned: str, sync: str, queries: list[tuple[str, datetime, float]]) -> dict:
    (tmp_path / "ex_probe.py").write_text(ANSWER.format(zoned=zoned, sync=sync))
    asked = [(entry, start.isoformat(), (start + timedelta(hours=hours)).isoformat()) for entry, start, hours in queries]
    done = subprocess.run([sys.executable, "-c", checks.PROBE, "ex_probe", json.dumps(asked)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def shown(instants: list[str]) -> list[str]:
    return [f"{datetime.fromisoformat(i):%a %m-%d %H:%M}" for i in instants]


def test_the_probe_runs_the_copy_beat_stored_and_sees_a_zone_pickle_drops(tmp_path):
    out = probed(tmp_path, "cached_zone", 'crontab(minute="*/15")', [("daily-report", checks.MONDAY, 24)])
    assert shown(out["fires"][0]) == ["Mon 12-07 06:00"]  # Beat's stored copy: UTC, not São Paulo
    assert out["moved"] == {"daily-report": out["fires"][0]} and out["file"] == ""
    out = probed(tmp_path, "sao_paulo_crontab", 'crontab(minute="*/15")', [("daily-report", checks.MONDAY, 24)])
    assert shown(out["fires"][0]) == ["Mon 12-07 09:00"] and out["moved"] == {}


@pytest.mark.parametrize("sync", ['crontab(minute="*/15")', "timedelta(minutes=15)", 'crontab(minute="7,22,37,52")'])
def test_stock_sync_is_graded_by_the_real_minutes_between_runs_at_any_minute(tmp_path, sync):
    nights = [night + timedelta(hours=checks.NIGHT[0]) for night in checks.CHANGE_NIGHTS]
    out = probed(tmp_path, "sao_paulo_crontab", sync,
                 [("stock-sync", checks.MONDAY, 1)] + [("stock-sync", night, checks.NIGHT[1]) for night in nights])
    assert checks.gaps(shown(out["fires"][0])) == checks.every_quarter(1)
    assert all(checks.gaps(shown(fires)) == checks.every_quarter(checks.NIGHT[1]) for fires in out["fires"][1:])


@pytest.mark.parametrize("sync", ['sao_paulo_crontab(minute="*/15")', "timedelta(minutes=16)",
                                  'crontab(minute="*/5")', 'crontab(minute="0,15,30")'])
def test_stock_sync_off_fifteen_real_minutes_fails(tmp_path, sync):
    nights = [night + timedelta(hours=checks.NIGHT[0]) for night in checks.CHANGE_NIGHTS]
    out = probed(tmp_path, "sao_paulo_crontab", sync,
                 [("stock-sync", checks.MONDAY, 1)] + [("stock-sync", night, checks.NIGHT[1]) for night in nights])
    assert (checks.gaps(shown(out["fires"][0])) != checks.every_quarter(1)
            or any(checks.gaps(shown(fires)) != checks.every_quarter(checks.NIGHT[1]) for fires in out["fires"][1:]))
