"""deploy/monitoring/celery-rules.yml: lesson 06's two alert rules, checked and unit-tested with promtool."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MONITORING = ROOT / "deploy" / "monitoring"
RULES = MONITORING / "celery-rules.yml"
RULE_TESTS = MONITORING / "celery-rules.test.yml"
LESSON = ROOT / "src" / "celerylab" / "lessons" / "l06_architecture" / "lesson.md"


def promtool(*args: str | Path, cwd: Path = MONITORING) -> subprocess.CompletedProcess:
    return subprocess.run(["promtool", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=60)


def lesson_rule_blocks() -> list[dict]:
    """Every ```yaml block of lesson 06 that is a Prometheus rule file (one per language)."""
    blocks = re.findall(r"```yaml\n(.*?)```", LESSON.read_text(encoding="utf-8"), flags=re.S)
    return [doc for doc in map(yaml.safe_load, blocks) if isinstance(doc, dict) and "groups" in doc]


def conditions(rule_file: dict) -> list[dict]:
    """The rules without their annotations (the Portuguese lesson words its summaries in Portuguese)."""
    return [{key: value for key, value in rule.items() if key != "annotations"}
            for group in rule_file["groups"] for rule in group["rules"]]


def test_the_rules_are_the_ones_lesson_06_prints():
    shipped = yaml.safe_load(RULES.read_text(encoding="utf-8"))
    portuguese, english = lesson_rule_blocks()
    assert english == shipped
    assert conditions(portuguese) == conditions(shipped)
    assert len(conditions(shipped)) == 2


@pytest.mark.needs("promtool")
def test_promtool_checks_the_rule_file():
    result = promtool("check", "rules", RULES)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 2 rules found" in result.stdout


@pytest.mark.needs("promtool")
def test_the_rules_unit_tests_pass():
    result = promtool("test", "rules", RULE_TESTS)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.needs("promtool")
@pytest.mark.parametrize("old, new", [
    ("[5m])) > 0\n", "[5m])) > 1\n"),          # the failure alert would wait for a second failure
    ("> 0.5\n", "> 0.7\n"),                      # the capture's 0.67 would not be a storm
    ("for: 5m", "for: 1m"),                      # the storm would fire before 5 minutes
    ('type="task-retried"', 'type="task-failed"'),  # the wrong counter
])
def test_the_unit_tests_catch_a_changed_rule(tmp_path, old, new):
    text = RULES.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / RULES.name).write_text(text.replace(old, new), encoding="utf-8")
    shutil.copy(RULE_TESTS, tmp_path / RULE_TESTS.name)
    result = promtool("test", "rules", RULE_TESTS.name, cwd=tmp_path)
    assert result.returncode != 0, result.stdout
