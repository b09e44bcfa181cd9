"""The clock SQLite reads, moved with the worker's: a worker started with $CELERYLAB_DATABASE_CLOCK_DAYS (days,
fractions allowed) sees SQLite's 'now' (CURRENT_DATE, CURRENT_TIMESTAMP, date('now'), ...) that many days ahead.

SQLite runs inside the worker's process and reads the machine's clock in C (its VFS's xCurrentTimeInt64), which the
moved Python clock (celerylab.stack.elsewhere_clock) does not reach: a worker on another machine, months later,
reads a date months later from its SQLite too. Installed as a lesson's app is imported (lesson 01's tasks.py), in the
pool's children as well (fork keeps it). PostgreSQL's clock is the server's: a check gives that worker's session
another time zone instead ($PGTZ), so its CURRENT_DATE is another day.
"""
from __future__ import annotations

import ctypes
import os
import sqlite3  # noqa: F401  (loads the SQLite library Python's sqlite3 uses)
from typing import Any

DAYS_ENV = "CELERYLAB_DATABASE_CLOCK_DAYS"
MS_PER_DAY = 86_400_000


class _Vfs(ctypes.Structure):
    """The head of SQLite's sqlite3_vfs, as far as xCurrentTimeInt64 (version 2 and later)."""


_FIELDS: list[tuple[str, Any]] = [
    ("iVersion", ctypes.c_int), ("szOsFile", ctypes.c_int), ("mxPathname", ctypes.c_int),
    ("pNext", ctypes.POINTER(_Vfs)), ("zName", ctypes.c_char_p), ("pAppData", ctypes.c_void_p)] + [
    (name, ctypes.c_void_p) for name in ("xOpen", "xDelete", "xAccess", "xFullPathname", "xDlOpen", "xDlError",
                                         "xDlSym", "xDlClose", "xRandomness", "xSleep", "xCurrentTime",
                                         "xGetLastError", "xCurrentTimeInt64")]
_Vfs._fields_ = _FIELDS

_TIME_INT64 = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64))
_TIME_DOUBLE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_double))
_KEPT: list = []  # the callbacks SQLite now calls: they must outlive this function


def install() -> None:
    """Move SQLite's clock $CELERYLAB_DATABASE_CLOCK_DAYS ahead in this process, if asked to."""
    days = float(os.environ.get(DAYS_ENV) or 0)
    if not days or _KEPT:
        return
    import _sqlite3

    library = ctypes.CDLL(_sqlite3.__file__)  # its symbols resolve to the SQLite library it is linked with
    library.sqlite3_vfs_find.restype = ctypes.POINTER(_Vfs)
    library.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
    default = library.sqlite3_vfs_find(None).contents
    originals = (default.xCurrentTimeInt64, default.xCurrentTime)
    vfs = library.sqlite3_vfs_find(None)
    while vfs:  # the unix VFSes share the default's clock functions; others (memdb) call the default's: left alone
        entry = vfs.contents
        if (entry.xCurrentTimeInt64, entry.xCurrentTime) == originals:
            _move(entry, days)
        vfs = entry.pNext


def _move(entry: _Vfs, days: float) -> None:
    if entry.iVersion >= 2 and entry.xCurrentTimeInt64:
        real_ms = _TIME_INT64(entry.xCurrentTimeInt64)

        def later_ms(vfs, out, real=real_ms):
            code = real(vfs, out)
            out[0] += int(days * MS_PER_DAY)
            return code

        moved_ms = _TIME_INT64(later_ms)
        _KEPT.extend((real_ms, moved_ms))
        entry.xCurrentTimeInt64 = ctypes.cast(moved_ms, ctypes.c_void_p).value
    if entry.xCurrentTime:
        real_days = _TIME_DOUBLE(entry.xCurrentTime)

        def later_days(vfs, out, real=real_days):
            code = real(vfs, out)
            out[0] += days
            return code

        moved_days = _TIME_DOUBLE(later_days)
        _KEPT.extend((real_days, moved_days))
        entry.xCurrentTime = ctypes.cast(moved_days, ctypes.c_void_p).value
