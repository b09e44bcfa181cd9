"""Counting what a test run starts (benchmarks/stack_starts.py): on $PYTHONPATH with $CELERYLAB_STARTS_LOG set, every
Python process appends one JSON line per stack / node / broker / database start, subprocess and sleep to that file."""
from __future__ import annotations

import functools
import importlib.abc
import json
import os
import sys
import threading
import time

LOG = os.environ.get("CELERYLAB_STARTS_LOG")
_lock = threading.Lock()


def _test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0] or os.environ.get("CELERYLAB_STARTS_OWNER", "?")


def _caller(depth: int = 3) -> str:
    frame = sys._getframe(depth)
    while frame is not None and ("polling.py" in frame.f_code.co_filename or "sitecustomize" in frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return "?"
    name = frame.f_code.co_filename
    if "site-packages" in name:
        name = "site:" + name.split("site-packages/", 1)[1]
    else:
        name = name.split("/src/", 1)[-1].split("/speed47/", 1)[-1]
    return f"{name}:{frame.f_lineno}"


def _write(kind: str, **fields) -> None:
    line = json.dumps({"kind": kind, "test": _test(), "pid": os.getpid(), "t": time.time(), **fields}) + "\n"
    with _lock, open(LOG, "a", encoding="utf-8") as out:
        out.write(line)


def _timed(kind, describe=lambda *a, **k: {}):
    def wrap(func):
        @functools.wraps(func)
        def timed(*args, **kwargs):
            start = time.monotonic()
            try:
                return func(*args, **kwargs)
            finally:
                try:
                    _write(kind, seconds=round(time.monotonic() - start, 3), where=_caller(2), **describe(*args, **kwargs))
                except Exception:
                    pass
        return timed
    return wrap


PATCHES = {
    "celerylab.stack.stack": lambda m: setattr(m.Stack, "_start", _timed(
        "stack", lambda self: {"app": str(getattr(self.spec, "app", "?")),
                               "workers": len(list(self.spec.worker_specs()))})(m.Stack._start)),
    "celerylab.stack.launch": lambda m: setattr(m.NodeLauncher, "start_node", _timed(
        "node", lambda self, cls, name, *a, **k: {"node": cls.__name__, "name": name})(m.NodeLauncher.start_node)),
    "celerylab.stack.broker": lambda m: setattr(m, "choose", _timed("broker")(m.choose)),
    "celerylab.stack.rabbitmq_node": lambda m: setattr(m.RabbitNode, "start", _timed("rabbitmq")(m.RabbitNode.start)),
    "celerylab.stack.packaged_postgres": lambda m: setattr(m.PrivatePostgres, "start", classmethod(_timed("postgres")(
        m.PrivatePostgres.start.__func__))),
    "celerylab.stack.database": lambda m: setattr(m.StackDatabase, "create", classmethod(_timed("database")(
        m.StackDatabase.create.__func__))),
    "celerylab.checks.check_run": lambda m: setattr(m, "run_check", _timed(
        "check", lambda ex, *a, **k: {"exercise": getattr(ex, "id", "?"),
                                      "stop": bool(k.get("stop_at_first_failure"))})(m.run_check)),
    "celerylab.polling": lambda m: (setattr(m, "until", _timed("poll")(m.until)),
                                    setattr(m, "read_until", _timed("poll")(m.read_until))),
}


def _named(name: str):
    return lambda *args, **kwargs: {"experiment": name}


def _experiments(module) -> None:
    """Every function a lesson's experiments module defines, timed ("experiment" lines)."""
    short = module.__name__.rsplit(".", 1)[-1]
    for attr, value in list(vars(module).items()):
        if callable(value) and getattr(value, "__module__", None) == module.__name__ and not isinstance(value, type) \
                and not attr.startswith("_"):
            setattr(module, attr, _timed("experiment", _named(f"{short}.{attr}"))(value))


def _patch_for(name: str):
    if name in PATCHES:
        return PATCHES[name]
    parts = name.split(".")
    if len(parts) == 5 and parts[:2] == ["celerylab", "lessons"] and parts[3] == "experiments":
        return _experiments
    return None


class _After(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        patch = _patch_for(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = getattr(finder, "find_spec", lambda *a: None)(name, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    try:
                        patch(module)
                    except Exception as error:  # measuring must not break the run
                        _write("patch-error", module=name, error=repr(error))
                spec.loader.exec_module = exec_module
                return spec
        return None


if LOG:
    import subprocess

    _popen_init = subprocess.Popen.__init__

    def _init(self, args, *rest, **kwargs):
        try:
            argv = [args] if isinstance(args, str) else [str(a) for a in args]
            prog = os.path.basename(argv[0].split()[0]) if argv else "?"
            words = " ".join(argv[:6])[:160]
            _write("popen", prog=prog, argv=words, where=_caller(2))
        except Exception:
            pass
        return _popen_init(self, args, *rest, **kwargs)

    subprocess.Popen.__init__ = _init

    _sleep = time.sleep

    def _slept(seconds):
        if seconds >= 0.2:
            try:
                _write("sleep", seconds=seconds, where=_caller(2))
            except Exception:
                pass
        return _sleep(seconds)

    time.sleep = _slept
    sys.meta_path.insert(0, _After())
