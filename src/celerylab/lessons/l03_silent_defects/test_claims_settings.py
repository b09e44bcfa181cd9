"""Misspelled retry settings, task_annotations and a base class, as lesson 03 measures them."""
from __future__ import annotations

from difflib import get_close_matches

import pytest
from celery import Celery, Task
from celery.app.defaults import SETTING_KEYS

from celerylab.lessons.l03_silent_defects import helpers, scenarios
from celerylab.stack import WorkerSpec

EVERY_TASK = {"*": {"max_retries": 3, "default_retry_delay": 60}}


def options_under(settings=None, **app_options):
    demo = Celery("claims", set_as_current=False, **app_options)
    demo.conf.update(settings or {})

    @demo.task(name="plain", shared=False)
    def plain(): ...

    @demo.task(name="declared", shared=False, default_retry_delay=30)
    def declared(): ...

    return {name: (demo.tasks[name].max_retries, demo.tasks[name].default_retry_delay)
            for name in ("plain", "declared")}


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60


def test_misspelled_keys_are_stored_and_ignored():
    demo = Celery("claims", set_as_current=False)
    demo.conf.update(task_max_retries=3, task_default_retry_delay=60)
    assert demo.conf.task_default_retry_delay == 60
    assert options_under({"task_max_retries": 3, "task_default_retry_delay": 60}) == {
        "plain": (3, 180), "declared": (3, 30)}


def test_star_annotation_overrides_the_decorator_and_named_annotations():
    assert options_under({"task_annotations": EVERY_TASK}) == {"plain": (3, 60), "declared": (3, 60)}
    named = {"task_annotations": {"declared": {"default_retry_delay": 7}, **EVERY_TASK}}
    assert options_under(named)["declared"] == (3, 60)


def test_base_class_gives_defaults_the_decorator_overrides():
    assert options_under(task_cls=Defaults) == {"plain": (3, 60), "declared": (3, 30)}


def test_difflib_fixes_typos_and_misleads_on_task_attributes():
    known = sorted(SETTING_KEYS)
    assert get_close_matches("task_acks_lat", known, n=1) == ["task_acks_late"]
    assert get_close_matches("task_max_retries", known, n=1) == ["elasticsearch_max_retries"]
    assert get_close_matches("task_default_retry_delay", known, n=1) == ["task_default_routing_key"]
    assert "task_max_retries" not in SETTING_KEYS and hasattr(Task, "max_retries")


@pytest.mark.live
def test_real_retry_countdowns_misspelled_and_annotated():
    with helpers.start() as stack:
        options = scenarios.task_options(stack, stack.workers[0].hostname)
        assert options["l03.send_invoice"] == (3, 180) and options["l03.welcome"] == (3, 30)
        assert abs(scenarios.retry_countdown(stack, "l03.send_invoice") - 180) <= 1
        assert scenarios.retry_countdown(stack, "l03.send_invoice", retries=3) == "FAILURE"
        annotated = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("annotated",),
                                                settings={"task_annotations": EVERY_TASK}))
        assert scenarios.task_options(stack, annotated.hostname)["l03.welcome"] == (3, 60)
        assert abs(scenarios.retry_countdown(stack, "l03.welcome", queue="annotated") - 60) <= 1
