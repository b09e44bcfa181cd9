"""`--scan DIR`: the project's other Python files (views, endpoints), read for call sites and never imported."""
from __future__ import annotations

import os

from celerylab.audit.reach import MAX_FILES, is_test_file, kept_dirs
from celerylab.audit.usages import module_files


def scanned_files(folders) -> list[str]:
    """Every .py file under `folders` (tests, virtualenvs, build output and hidden folders left out), in order."""
    found: list[str] = []
    for top in folders or ():
        for folder, dirs, files in os.walk(os.path.abspath(top)):
            dirs[:] = kept_dirs(dirs)
            found += [os.path.join(folder, name) for name in sorted(files)
                      if name.endswith(".py") and not is_test_file(name)]
            if len(found) >= MAX_FILES:
                return found[:MAX_FILES]
    return found


def call_site_files(view) -> list[str]:
    """The files the call-site rules read: the modules the load imported, then the --scan files not among them."""
    imported = module_files(view.user_modules)
    seen = {os.path.realpath(path) for path in imported}
    return imported + [path for path in view.scanned if os.path.realpath(path) not in seen]
