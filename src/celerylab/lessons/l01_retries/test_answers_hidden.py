"""No module a learner is pointed to (the task modules the notebooks import, helpers, views, the experiments) registers
or writes an exercise's answer: the claim tests' worker alone loads those (claims_answers.py)."""
from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

from celerylab.lessons.l01_retries import claims_answers, experiments

LESSON = "celerylab.lessons.l01_retries"
#: What the notebooks import, and every experiment a notebook cell runs.
LEARNER_ENTRY_POINTS = [f"{LESSON}.{name}" for name in ("tasks", "helpers", "views")] + [
    f"{LESSON}.experiments.{module.name}" for module in pkgutil.iter_modules(experiments.__path__)]
#: Each exercise's answer as its solution writes it: 1 the key handed to the provider, 2 the transient errors' list,
#: 3 the upsert that writes the latest amount.
ANSWER_CODE = ("idempotency_key=event_id", "(TimeoutError, ConnectionError)", "amount = excluded.amount")

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
from celerylab.lessons.l01_retries.tasks import app
print(json.dumps({"tasks": sorted(app.tasks), "modules": {name: getattr(module, "__file__", None)
      for name, module in sys.modules.items() if name.startswith("celerylab.lessons.l01_retries")}}))
"""


def learner_view() -> dict:
    """What a fresh interpreter holds once it imported what a learner is pointed to (no other test's imports)."""
    found = subprocess.run([sys.executable, "-c", PROBE, *LEARNER_ENTRY_POINTS], capture_output=True, text=True,
                           check=True, timeout=120)
    return json.loads(found.stdout.strip().splitlines()[-1])


def test_no_learner_module_registers_an_answer_task():
    view = learner_view()
    assert set(claims_answers.NAMES) & set(view["tasks"]) == set()
    assert claims_answers.__name__ not in view["modules"]


def test_no_learner_module_holds_an_answer():
    files = [Path(path) for path in learner_view()["modules"].values() if path]
    assert files, "the probe loaded no module of the lesson"
    leaks = [(file.name, code) for file in files for code in ANSWER_CODE if code in file.read_text(encoding="utf-8")]
    assert leaks == []


def test_the_claims_module_registers_the_answers():
    assert set(claims_answers.NAMES) <= set(claims_answers.app.tasks)
