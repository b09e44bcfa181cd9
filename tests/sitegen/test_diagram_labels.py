"""Every label in the site's diagrams (queues, tasks, exceptions, settings) is what the project's code really uses."""
from __future__ import annotations

import builtins
import inspect
import re
from pathlib import Path

import pytest
from celery.app import autoretry
from celery.app.defaults import DEFAULTS
from celery.app.task import Task

from celerylab.deploy.app import QUEUES
from celerylab.deploy.app import app as deploy_app
from celerylab.fakes import clients

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "site" / lang / "diagrams.md" for lang in ("pt", "en")]
MERMAID = re.compile(r"```mermaid\n(.*?)\n```", re.DOTALL)
QUEUE = re.compile(r"(?:\bfila|\bqueue|-Q) (\w+)")
TASK = re.compile(r"\bl\d\d\.\w+")
EXCEPTION = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception|Exceeded)\w*\b")
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def diagrams(page: Path) -> str:
    return "\n".join(MERMAID.findall(page.read_text(encoding="utf-8")))


def lesson_tasks() -> dict:
    from celerylab.lessons.l01_retries import tasks

    return {name: task for name, task in tasks.app.tasks.items() if re.match(r"l\d\d\.", name)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.parent.name)
def test_queue_names_are_the_deployed_ones(page):
    named = set(QUEUE.findall(diagrams(page)))
    assert named == set(QUEUES), f"{page}: diagrams name {sorted(named)}, the project has {QUEUES}"
    assert {route["queue"] for route in deploy_app.conf.task_routes.values()} <= named


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.parent.name)
def test_task_and_exception_names_exist_in_the_lessons(page):
    text = diagrams(page)
    tasks = lesson_tasks()
    assert set(TASK.findall(text)) <= set(tasks), sorted(set(TASK.findall(text)) - set(tasks))
    retried = {exc.__name__ for task in tasks.values() for exc in (getattr(task, "autoretry_for", ()) or ())}
    for name in set(EXCEPTION.findall(text)):
        assert name in retried and hasattr(builtins, name), f"{page}: {name} is not an exception a lesson retries"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.parent.name)
def test_setting_and_argument_names_are_celerys_or_the_tasks(page):
    tasks = lesson_tasks()
    params = {name for task in tasks.values() for name in inspect.signature(task.run).parameters}
    settings = {key.split(".")[-1] for key in DEFAULTS} | set(DEFAULTS)
    settings |= set(re.findall(r"'(\w+)'", inspect.getsource(autoretry)))  # options the autoretry wrapper reads
    for name in set(IDENTIFIER.findall(TASK.sub("", diagrams(page)))):
        known = hasattr(Task, name) or name in settings or name in params
        assert known, f"{page}: {name!r} is neither a Celery task option/setting nor a lesson task's argument"


def test_the_measured_facts_are_the_ones_drawn():
    pt, en = (diagrams(page) for page in PAGES)
    for text in (pt, en):
        assert "MaxRetriesExceededError" not in text  # after the last autoretry, the original exception
        assert "Idempotency-Key" in text and "Idempotency-Key" in inspect.getsource(clients)
        assert "l01.welcome_checked" not in text or "COMMIT" in text
    assert "retry_backoff × 2^retries" in pt and "retry_backoff × 2^retries" in en
