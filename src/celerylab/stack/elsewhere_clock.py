"""Run a Celery command as on another machine, later: another host name and a wall clock `--days` ahead.

``python -m celerylab.stack.elsewhere_clock --hostname NAME --days N -- python -m celery ...``: the command
runs in this process, after this module has given it a host name of its own (socket.gethostname, os.uname,
platform.node) and moved its wall clock (time.time, time.time_ns and what reads them: date.today,
datetime.fromtimestamp(time.time())) N days ahead. Where bwrap can run, the worker also gets a UTS namespace with
that host name (elsewhere.isolated); here, the names the task's code reads.

Celery's own timer keeps the real clock to turn a retry's ETA into a wait (kombu computes the wait as the ETA minus
time.time()): a countdown still waits its seconds on a worker whose calendar is months ahead.
"""
from __future__ import annotations

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


def shift_clock(days: float) -> None:
    """Move time.time and time.time_ns `days` ahead (date.today reads time.time); kombu's timer keeps the real one."""
    real_time, real_time_ns = time.time, time.time_ns
    offset = days * DAY
    time.time = lambda: real_time() + offset
    time.time_ns = lambda: real_time_ns() + int(offset * 1e9)
    import kombu.asynchronous.timer as timer  # imported now, after the shift: restore its own copy

    timer._time = real_time  # type: ignore[attr-defined]


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
