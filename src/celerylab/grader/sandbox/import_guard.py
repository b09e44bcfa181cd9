"""The job process never imports a module from a folder the learner's code can write (a `tblib.py` beside the answer).

Installed by the job on itself once it runs as its own user: whatever puts the work folder on
`sys.path` (the check's fallback import, the stack's client app), an import that would be found in
a learner-writable place is searched again without those places. Only the exercise modules named
when it is installed may come from the work folder (a course outside the package imports the
answer in the job itself; that case is watched by the checker fingerprint instead).
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from pathlib import Path


def writable(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether the learner could have written `path`: it is under one of `roots`, or this process's user
    (the job's own, after confinement) may write it or its folder."""
    if any(path.is_relative_to(root) for root in roots):
        return True
    return os.getuid() != 0 and any(os.access(place, os.W_OK) for place in (path, path.parent) if place.exists())


class LearnerFolders(importlib.abc.MetaPathFinder):
    """First on `sys.meta_path`: re-finds, without learner-writable entries, what the path finder found there."""

    def __init__(self, roots: list[Path], allowed: set[str], by_access: bool):
        self.roots = tuple(Path(root).resolve() for root in roots)
        self.allowed, self.by_access = set(allowed), by_access
        self.refused: list[str] = []

    def tainted(self, location: str | None) -> bool:
        if not location:
            return False
        path = Path(location).resolve()
        if self.by_access:
            return writable(path, self.roots)
        return any(path.is_relative_to(root) for root in self.roots)

    def find_spec(self, name, path=None, target=None):
        if name in self.allowed:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None:
            return None
        locations = [spec.origin] if spec.has_location else list(spec.submodule_search_locations or [])
        if not any(self.tainted(location) for location in locations):
            return spec
        self.refused.append(name)
        entries = [entry for entry in (path if path is not None else sys.path) if not self.tainted(entry or ".")]
        clean = importlib.machinery.PathFinder.find_spec(name, entries, target)
        if clean is None:
            raise ModuleNotFoundError(f"No module named {name!r} outside the learner's folders", name=name)
        return clean


def install(roots: list[Path], allowed: set[str], by_access: bool) -> LearnerFolders:
    """Put the guard first on `sys.meta_path` and drop cached path importers of the learner's folders."""
    guard = LearnerFolders(roots, allowed, by_access)
    sys.meta_path.insert(0, guard)
    for entry in list(sys.path_importer_cache):
        if guard.tainted(entry):
            sys.path_importer_cache.pop(entry, None)
    return guard
