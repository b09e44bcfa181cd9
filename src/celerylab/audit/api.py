"""Audit an app by name: load it as a worker would, optionally ask a live worker, run the rules, return the report."""
from __future__ import annotations

import gc
import os

from celerylab.audit.appview import AppView
from celerylab.audit.loader import loaded
from celerylab.audit.run_rules import Report, run
from celerylab.audit.scan import scanned_files


def audit(spec: str, *, ignore=(), practice: bool = True, path: str | None = None, live: bool = False,
          on_live=None, scan=()) -> Report:
    """The report for the app `spec` (raises loader.LoadError when it cannot be loaded)."""
    folder = os.path.abspath(path or os.getcwd())
    with loaded(spec, folder) as app:
        live_registered = None
        if live:
            from celerylab.audit.live import registered

            live_registered = registered(spec, folder)
            if on_live:
                on_live(live_registered)
        report = run(AppView(app, live_registered, scanned=tuple(scanned_files(scan))), ignore=ignore,
                     practice=practice)
    del app
    gc.collect()  # the audited app and its tasks go now: a shared_task imported later is not offered to them
    return report
