"""Every skip says what the machine lacks and how to get it: the `needs` marker's reasons for each need, the live hub's
reasons, and the reading of a run's skip summary that the fresh-machine test holds its fast lane to."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from skip_reasons import says_how, skips, without_a_way

from celerylab import machine_needs
from celerylab.i18n import set_lang

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
import hubdriver  # noqa: E402

SUMMARY = """\
=========================== short test summary info ============================
SKIPPED [3] tests/deploy/test_alert_rules.py:20: this machine lacks promtool (Debian/Ubuntu: apt install prometheus)
SKIPPED [1] tests/deploy/test_jupyterhub_live.py:29: no useradd to create learners' Unix users
SKIPPED [2] src/celerylab/lessons/l02_workers/test_claims_workers.py:98: amqp://guest:guest@127.0.0.1:5672//: \
OperationalError: [Errno 111] Connection refused
SKIPPED [1] tests/deploy/test_alert_rules.py:20: this machine lacks promtool (Debian/Ubuntu: apt install prometheus)
SKIPPED [9] tests/deploy/test_compose_docker.py: this machine lacks docker (Debian/Ubuntu: sudo bash .ci/setup-docker)
FAILED tests/x.py::test_y - AssertionError
"""


def test_the_summary_is_counted_by_reason():
    counted = skips(SUMMARY)
    assert counted == {
        "this machine lacks promtool (Debian/Ubuntu: apt install prometheus)": 4,
        "this machine lacks docker (Debian/Ubuntu: sudo bash .ci/setup-docker)": 9,
        "no useradd to create learners' Unix users": 1,
        "amqp://guest:guest@127.0.0.1:5672//: OperationalError: [Errno 111] Connection refused": 2,
    }
    assert without_a_way(counted) == [
        "amqp://guest:guest@127.0.0.1:5672//: OperationalError: [Errno 111] Connection refused",
        "no useradd to create learners' Unix users",
    ]


@pytest.mark.parametrize("reason", ["FOR UPDATE needs PostgreSQL", "needs RabbitMQ", "bwrap cannot run here",
                                    "needs root, to start the fake as another user"])
def test_a_reason_naming_only_what_is_missing_says_no_way(reason):
    assert not says_how(reason)


@pytest.mark.parametrize("lang", ["pt", "en"])
@pytest.mark.parametrize("need", sorted(machine_needs.CHECKS))
def test_the_needs_marker_says_how_to_get_each_need_in_one_line(need, lang):
    set_lang(lang)
    try:
        reason = machine_needs.missing_reason([need])
    finally:
        set_lang("pt")
    assert need in reason and "\n" not in reason
    assert says_how(reason), reason


MISSING = {"root": {"euid": 1000}, "useradd": {"which": "useradd"}, "node": {"which": "node"}}


@pytest.mark.parametrize("missing", sorted(MISSING))
def test_the_live_hub_says_how_to_get_what_it_lacks(missing, monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: MISSING[missing].get("euid", 0))
    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == MISSING[missing].get("which") else
                        real_which(name) or f"/usr/bin/{name}")
    reason = hubdriver.why_not()
    assert reason is not None and missing in reason
    assert says_how(reason), reason


ROOT = Path(__file__).resolve().parents[2]
# Skips written in the suite's files whose reason names no way to get what is missing, each with why it may stay.
WITHOUT_A_WAY = {
    ("tests/compiler/test_course.py", "{} has no lesson.md yet"): "a lesson being written, not the machine",
}


def written_reasons(path: Path) -> list[str]:
    """The reasons of `path`'s pytest.skip(...), pytest.importorskip(..., reason=...) and skipif(..., reason=...)
    written as a string or an f-string (an f-string's fields as {}); reasons held in variables are not seen."""
    import ast

    def text(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = text(node.left), text(node.right)
            return None if left is None and right is None else (left or "{}") + (right or "{}")
        return None

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("skip", "importorskip", "skipif")):
            continue
        given = [keyword.value for keyword in node.keywords if keyword.arg == "reason"]
        if node.func.attr == "skip" and node.args:
            given.append(node.args[0])
        found += [reason for reason in map(text, given) if reason is not None]
    return found


def test_every_skip_written_in_the_suite_says_how_to_get_what_it_lacks():
    files = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "src" / "celerylab" / "testing").rglob("*.py"),
             *(ROOT / "src" / "celerylab" / "lessons").rglob("test_*.py")]
    written = {(path.relative_to(ROOT).as_posix(), reason) for path in files if "wrong_answers" not in path.parts
               for reason in written_reasons(path)}
    assert ("tests/deploy/test_celerylab_spawner.py", "JupyterHub is not installed in this environment: pip install -c "
            "constraints.txt -e '.[hub]' (the hub extra; python3 run.py test installs it)") in written
    assert sorted(found for found in written if not says_how(found[1]) and found not in WITHOUT_A_WAY) == []
    assert sorted(set(WITHOUT_A_WAY) - written) == [], "listed as without a way but no longer written so: unlist them"
