"""How often a live worker's kombu gives expired messages back on Redis, read the way kombu/transport/redis.py runs it
(and how long a worker killed in the middle of a sweep keeps the others' sweeps out)."""
from __future__ import annotations

import math
import re

#: restore_visible calls followed when the throttle is not an integer: its scans follow no short cycle (``n % 1.5``
#: is 0 every 3 calls, ``n % 0.1`` almost never); a scan that does not come within them counts as that many calls
CALLS = 100_000


def _number(value) -> bool:
    """A value kombu can compute with (an int, a float or a bool), and finite."""
    return isinstance(value, (int, float)) and math.isfinite(value)


def scan_every(throttle) -> int | None:
    """The most restore_visible calls from one Redis scan to the next (None: it never scans again).

    restore_visible scans on the calls n (from 0) where ``n % (throttle or 1)`` is 0: a throttle of 0 or None counts
    as 1, one of -1 scans on every call too (Python's modulo), an integer t on every abs(t)-th call."""
    step = throttle or 1
    if not _number(step):
        return None  # a modulo by it raises (a string) or is never 0 (nan): no scan
    if isinstance(step, int):
        return abs(step)
    scans = [n for n in range(CALLS) if not n % step]  # n = 0 always: 0 % step is 0
    return max([later - earlier for earlier, later in zip(scans, scans[1:])] + [CALLS - scans[-1]])


def sweep_period(options: dict, default_interval: float, default_throttle) -> float | None:
    """The longest time, in seconds, between two Redis scans of a live worker (None: it never scans).

    The event loop calls restore_visible every unacked_restore_interval seconds; kombu replaces an interval of 0 or
    less with its default (`default_interval`)."""
    interval = options.get("unacked_restore_interval", default_interval)
    if not _number(interval):
        return None  # kombu's `interval <= 0` raises, or the timer never fires
    calls = scan_every(options.get("unacked_restore_throttle", default_throttle))
    return None if calls is None else calls * (interval if interval > 0 else default_interval)


def restored_per_sweep(options: dict, default_limit) -> int | None:
    """How many expired messages one scan gives back: None for all of them, 0 for none ever.

    kombu asks Redis for ``ZRANGE ... LIMIT 0 <limit>`` whenever unacked_restore_limit is not None: Redis returns
    nothing for a count of 0, everything for a negative count, and refuses a count that is not an integer (a float,
    even 2.0; a bool, which redis-py refuses to send)."""
    limit = options.get("unacked_restore_limit", default_limit)
    if limit is None:
        return None
    if isinstance(limit, str) and re.fullmatch(r"-?[0-9]+", limit):
        limit = int(limit)
    if isinstance(limit, bool) or not isinstance(limit, int):
        return 0
    return None if limit < 0 else limit


def mutex_held(options: dict, default_expire) -> float | None:
    """Seconds a worker killed in the middle of a sweep keeps every other worker's sweeps out (None: for ever).

    kombu sweeps holding redis-py's ``Lock(unacked_mutex_key, timeout=unacked_mutex_expire)``, which the sweeps of
    other workers skip while it is held; a killed holder never releases it. The lock sets its key with
    ``PX int(expire * 1000)`` when the expire is truthy and with no expiry otherwise (0, None, False: held for ever);
    Redis refuses a PX of 0 or less, and a value int() cannot take (nan, inf) or a text raises: every sweep fails."""
    expire = options.get("unacked_mutex_expire", default_expire)
    if not expire or not _number(expire):
        return None
    milliseconds = int(expire * 1000)
    return None if milliseconds <= 0 else milliseconds / 1000


def latest_back(options: dict, held: int, defaults) -> float | None:
    """Seconds after the kill by which a message of a killed worker that held `held` messages is given back,
    wherever in the sweep's cycle the kill lands (None: never). `defaults`: kombu's redis Channel, for its defaults.

    The message was delivered before the kill, so it expires at most a visibility timeout after it; a sweep the
    killed worker was in took its mutex before the kill, so the others' sweeps scan again at most unacked_mutex_expire
    after it. From the later of the two, each scan gives back the expired messages up to its limit, so the last of
    `held` waits ceil(held / limit) scans."""
    vt = options.get("visibility_timeout", defaults.visibility_timeout)
    period = sweep_period(options, defaults.unacked_restore_interval, defaults.unacked_restore_throttle)
    per_sweep = restored_per_sweep(options, defaults.unacked_restore_limit)
    mutex = mutex_held(options, defaults.unacked_mutex_expire)
    if not _number(vt) or period is None or per_sweep == 0 or mutex is None:
        return None
    sweeps = 1 if per_sweep is None else -(-held // per_sweep)
    return max(float(vt), mutex) + sweeps * period
