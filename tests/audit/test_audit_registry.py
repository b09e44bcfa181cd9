"""The rules' registry: importing and registering every rule reads no lesson (the course is parsed only for links)."""
from __future__ import annotations

import subprocess
import sys

PROBE = ("import sys; from celerylab.audit.registry import all_rules; all_rules(); "
         "print(sorted(name for name in ('celerylab.course', 'celerylab.compiler.sections') if name in sys.modules))")


def test_registering_the_rules_parses_no_lesson():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_rule_still_names_its_lesson_when_asked():
    from celerylab.audit.registry import all_rules

    assert all_rules()["CL301"].lesson == "l01_retries"
