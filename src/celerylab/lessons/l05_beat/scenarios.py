"""Schedules asked of Celery itself at fixed instants, and the RedBeat lock's holder and failover, timed."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery import Celery

from celerylab.polling import until

UTC = timezone.utc
MAX_LOOP = 300  # seconds: the default scheduler's longest sleep between two ticks (celery/beat.py)


def app_in(zone: str, enable_utc: bool = True) -> Celery:
    """A bare Celery app whose `timezone` is `zone` (only the schedule maths are used)."""
    app = Celery("l05-clock", set_as_current=False)
    app.conf.timezone = zone
    app.conf.enable_utc = enable_utc
    return app


class Clock:
    """A fixed clock to pass as ``nowfun=``: Celery reads the time from it, the loop moves it.

    With a `zone` it reads like Beat's clock, ``app.now()``: the same instant, in the app's time zone.
    """

    def __init__(self, instant: datetime, zone=None):
        self.instant = instant
        self.zone = zone

    def __call__(self) -> datetime:
        return self.instant.astimezone(self.zone) if self.zone else self.instant


def firings(schedule, clock: Clock, count: int = 2, limit_days: int = 60) -> list[datetime]:
    """Beat's loop on a fixed clock: ask ``is_due(last_run_at)``; on True record the instant.

    Like Beat, the clock reads in the app's time zone (``app.now()``), a fresh entry's last run is "now",
    and the next check is at most MAX_LOOP away.
    """
    clock.zone = schedule.tz
    start = clock.instant
    last, fired = clock(), []
    while len(fired) < count and clock.instant - start < timedelta(days=limit_days):
        due, next_check = schedule.is_due(last)
        if due:
            fired.append(clock.instant)
            last = clock()
        clock.instant += timedelta(seconds=max(1, min(next_check, MAX_LOOP)))
    return fired


def local(instant: datetime, zone: str) -> str:
    """'Mon 03-02 08:30 UTC = 05:30 -03' for a printed table."""
    there = instant.astimezone(ZoneInfo(zone))
    return f"{instant:%a %m-%d %H:%M} UTC = {there:%H:%M %Z}"


def night_firings(schedule, clock: Clock, zone: str, day: datetime, until_hour: int = 24) -> list[datetime]:
    """The instants a schedule fires on `day` (`zone`), from midnight until `until_hour` local time."""
    fired = firings(schedule, clock, count=48, limit_days=2)
    return [f for f in fired if f.astimezone(ZoneInfo(zone)).date() == day.date()
            and f.astimezone(ZoneInfo(zone)).hour < until_hour]


def night_runs(schedule, clock: Clock, zone: str, day: datetime, until_hour: int = 24) -> list[str]:
    """Local wall-clock times a schedule fires during `day` (midnight to `until_hour`, `zone`)."""
    return [f"{f.astimezone(ZoneInfo(zone)):%H:%M %Z}" for f in night_firings(schedule, clock, zone, day, until_hour)]


def longest_gap(fired: list[datetime]) -> int:
    """The longest real time between two consecutive runs, in minutes (instants, not wall-clock times)."""
    return max((int((b - a).total_seconds() // 60) for a, b in zip(fired, fired[1:])), default=0)


# -- RedBeat's lock ----------------------------------------------------------------

def lock_holder(stack, exclude=(), timeout: float = 15.0):
    """The Beat whose log says ``beat: Acquired lock`` (RedBeat takes the lock in beat_init)."""
    holder = until(lambda: next((beat for beat in stack.beats
                                 if beat not in exclude and beat.alive and "Acquired lock" in beat.logs), None),
                   timeout, step=0.02)
    if holder is None:
        raise TimeoutError("no Beat acquired the lock")
    return holder


def lock_ttl(stack) -> float:
    """Seconds the RedBeat lock still has to live (its key is under the stack's namespace)."""
    import redis

    client = redis.Redis.from_url(stack.broker.url)
    try:
        return client.pttl(f"{stack.namespace}redbeat:lock") / 1000
    finally:
        client.close()


def takeover(stack, holder, stop) -> dict:
    """Stop the holder with `stop` (its kill or terminate), time until another Beat holds the lock."""
    ttl = lock_ttl(stack)
    began = time.monotonic()
    stop()
    successor = lock_holder(stack, exclude=(holder,))
    return {"ttl_before": ttl, "seconds": time.monotonic() - began, "successor": successor}


def extend_ttls(stack, ticks: int = 3, timeout: int = 5) -> dict[str, float]:
    """Two locks on the stack's Redis, each renewed with ``extend(timeout)`` on `ticks` ticks 1 s apart: their TTLs.

    One keeps redis-py's extend script (it adds to what is left), the other gets RedBeat's, as RedBeat's
    beat_init handler installs it (it sets the TTL to `timeout`).
    """
    import redis
    from redbeat.schedulers import LUA_EXTEND_TO_SCRIPT

    client = redis.Redis.from_url(stack.broker.url)
    try:
        locks = {"redis_py": client.lock(f"{stack.namespace}extend-demo:redis-py", timeout=timeout),
                 "redbeat": client.lock(f"{stack.namespace}extend-demo:redbeat", timeout=timeout)}
        locks["redbeat"].lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)
        for lock in locks.values():
            lock.acquire()
        for _ in range(ticks):
            time.sleep(1.0)
            for lock in locks.values():
                lock.extend(timeout)
        ttls = {name: client.pttl(lock.name) / 1000 for name, lock in locks.items()}
        for lock in locks.values():
            lock.release()
        return ttls
    finally:
        client.close()

