"""Run a Celery command as on another machine, later: another host name and a wall clock `--days` ahead.

``python -m celerylab.stack.elsewhere_clock --hostname NAME --days N -- python -m celery ...``: the command
runs in this process, after this module has given it a host name of its own (socket.gethostname, os.uname,
platform.node) and moved its wall clock (time.time, time.time_ns and what reads them: date.today,
datetime.fromtimestamp(time.time()); datetime.now, utcnow and today, and time.gmtime, localtime, ctime, asctime and
strftime without a time, clock_gettime(CLOCK_REALTIME), which read the system clock in C) N days ahead (N need not
be whole: hours and minutes move too). Where bwrap can run, the worker also gets a UTS namespace
with that host name (elsewhere.isolated); here, the names the task's code reads.

Celery's own code keeps the real clock to turn a retry's countdown into an ETA and the ETA into a wait (its
datetime.now, and kombu's timer, which computes the wait as the ETA minus time.time()): a countdown still waits its
seconds on a worker whose calendar is months ahead.
"""
from __future__ import annotations

import datetime
import os
import runpy
import socket
import sys
import time

DAY = 86400.0


def rename(hostname: str) -> None:
    """Every host name the task's code can read from Python: socket.gethostname, os.uname, platform.node."""
    real_uname = os.uname

    def uname():
        fields = list(real_uname())
        fields[1] = hostname
        return os.uname_result(fields)

    socket.gethostname = lambda: hostname
    os.uname = uname
    os.environ["HOSTNAME"] = hostname


#: The modules whose calls to datetime.now keep the real clock: Celery's own (an ETA is computed and waited for with
#: the real clock, so a countdown waits its seconds).
REAL_CLOCK_CALLERS = ("celery", "kombu", "billiard", "vine", "amqp")


def shift_clock(days: float) -> None:
    """Move time.time and time.time_ns `days` ahead (date.today reads time.time), the time module's functions that
    read the clock when given no time (shift_time_functions), and datetime.now, utcnow and today (shift_datetime);
    kombu's timer and Celery's own datetime.now keep the real clock."""
    real_time, real_time_ns = time.time, time.time_ns
    offset = days * DAY
    time.time = lambda: real_time() + offset
    time.time_ns = lambda: real_time_ns() + int(offset * 1e9)
    shift_time_functions(time.time, time.time_ns)
    shift_datetime(real_time, time.time)
    import kombu.asynchronous.timer as timer  # imported now, after the shift: restore its own copy

    timer._time = real_time  # type: ignore[attr-defined]


def shift_time_functions(shifted_time, shifted_time_ns) -> None:
    """time.gmtime, localtime, ctime, asctime and strftime given no time read `shifted_time` (given one, they convert
    it as before); clock_gettime and clock_gettime_ns of CLOCK_REALTIME too (the other clocks are not the calendar)."""
    real_gmtime, real_localtime, real_ctime = time.gmtime, time.localtime, time.ctime
    real_asctime, real_strftime = time.asctime, time.strftime
    real_clock_gettime, real_clock_gettime_ns = time.clock_gettime, time.clock_gettime_ns
    time.gmtime = Unbound(lambda secs=None: real_gmtime(shifted_time() if secs is None else secs))
    time.localtime = Unbound(lambda secs=None: real_localtime(shifted_time() if secs is None else secs))
    time.ctime = Unbound(lambda secs=None: real_ctime(shifted_time() if secs is None else secs))
    time.asctime = Unbound(lambda t=None: real_asctime(real_localtime(shifted_time()) if t is None else t))
    time.strftime = Unbound(lambda format, t=None: real_strftime(format, real_localtime(shifted_time())
                                                                 if t is None else t))
    time.clock_gettime = Unbound(lambda clock: shifted_time() if clock == time.CLOCK_REALTIME
                                 else real_clock_gettime(clock))
    time.clock_gettime_ns = Unbound(lambda clock: shifted_time_ns() if clock == time.CLOCK_REALTIME
                                    else real_clock_gettime_ns(clock))


class Unbound:
    """A function that stays one argument list when a class stores it, as C's functions do (logging.Formatter's
    `converter = time.localtime` is called as self.converter(seconds): a plain Python function would get self too)."""

    def __init__(self, function) -> None:
        self._function = function

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)


def celerys_own(frame) -> bool:
    """Whether the code that called datetime.now (the frame) is Celery's own."""
    name = str(frame.f_globals.get("__name__", "")) if frame is not None else ""
    return name.split(".")[0] in REAL_CLOCK_CALLERS


class _RealInstances(type):
    """isinstance/issubclass against the shifted class answer as against the real one (a real datetime made before
    the swap, or by C code, is still a datetime to the code that reads the class after it)."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, cls.__mro__[1])

    def __subclasscheck__(cls, subclass) -> bool:
        return issubclass(subclass, cls.__mro__[1])


def shift_datetime(real_time, shifted_time) -> None:
    """datetime.datetime becomes a subclass whose now, utcnow and today read `shifted_time` (for Celery's own code,
    `real_time`). Pickled, its instances name `datetime.datetime`: they load anywhere as the real class."""
    real = datetime.datetime

    def clock() -> float:
        return real_time() if celerys_own(sys._getframe(2)) else shifted_time()

    class ShiftedDatetime(datetime.datetime, metaclass=_RealInstances):
        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(clock(), tz)

        @classmethod
        def utcnow(cls):
            return cls.fromtimestamp(clock(), datetime.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls):
            return cls.fromtimestamp(clock())

    ShiftedDatetime.__module__, ShiftedDatetime.__name__, ShiftedDatetime.__qualname__ = (
        real.__module__, real.__name__, real.__qualname__)
    datetime.datetime = ShiftedDatetime  # type: ignore[misc]


def main(argv: list[str]) -> None:
    hostname, days, command = None, 0.0, argv
    while command and command[0] != "--":
        option, value, *command = command
        if option == "--hostname":
            hostname = value
        elif option == "--days":
            days = float(value)
        else:
            raise SystemExit(f"unknown option {option}")
    command = command[1:]
    if hostname:
        rename(hostname)
    if days:
        shift_clock(days)
    if command[:3] != [sys.executable, "-m", "celery"]:
        raise SystemExit(f"not a celery command: {command[:3]}")
    sys.argv = ["celery", *command[3:]]
    runpy.run_module("celery", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
