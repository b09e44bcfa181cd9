"""The checks' registry: each lesson's checks.py registers one function per exercise with ``@exercise``."""
from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Callable

from celerylab.course import Exercise

CheckFunction = Callable[..., None]  # called with the exercise's CheckRun (celerylab.checks.check_run)
REGISTRY: dict[str, CheckFunction] = {}


def exercise(exercise_id: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register the decorated function as the check of `exercise_id` (e.g. ``l01.welcome_once``)."""
    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY[exercise_id] = function
        return function
    return register


def load_checks(info: Exercise) -> CheckFunction:
    """Import the lesson's checks module (from the package, or by path for a course root elsewhere)."""
    if info.id not in REGISTRY:
        if info.in_package:
            importlib.import_module(info.checks_module)
        elif info.checks_module not in sys.modules:
            spec = importlib.util.spec_from_file_location(info.checks_module, info.checks_path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[info.checks_module] = module
            spec.loader.exec_module(module)
    return REGISTRY[info.id]
