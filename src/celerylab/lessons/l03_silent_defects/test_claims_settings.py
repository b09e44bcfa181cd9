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


def test_misspelled_keys_are_stored_and_ignored(observe):
    demo = Celery("claims", set_as_current=False)
    demo.conf.update(task_max_retries=3, task_default_retry_delay=60)
    options = options_under({"task_max_retries": 3, "task_default_retry_delay": 60})
    observe.equal(conf_task_default_retry_delay=(demo.conf.task_default_retry_delay, 60),
                  plain=(options["plain"], (3, 180)), declared=(options["declared"], (3, 30)))


def test_star_annotation_overrides_the_decorator_and_named_annotations(observe):
    star = options_under({"task_annotations": EVERY_TASK})
    named = options_under({"task_annotations": {"declared": {"default_retry_delay": 7}, **EVERY_TASK}})
    observe.equal(plain=(star["plain"], (3, 60)), declared=(star["declared"], (3, 60)),
                  declared_also_named_7=(named["declared"], (3, 60)))


def test_base_class_gives_defaults_the_decorator_overrides(observe):
    options = options_under(task_cls=Defaults)
    observe.equal(plain=(options["plain"], (3, 60)), declared=(options["declared"], (3, 30)))


def test_difflib_fixes_typos_and_misleads_on_task_attributes(observe):
    known = sorted(SETTING_KEYS)
    nearest = {"task_acks_lat": "task_acks_late", "task_max_retries": "elasticsearch_max_retries",
               "task_default_retry_delay": "task_default_routing_key"}
    observe.equal(**{key: ((get_close_matches(key, known, n=1) or ["-"])[0], near) for key, near in nearest.items()},
                  task_max_retries_is_a_setting=("task_max_retries" in SETTING_KEYS, False),
                  task_has_max_retries=(hasattr(Task, "max_retries"), True))


@pytest.mark.live
def test_real_retry_countdowns_misspelled_and_annotated(observe):
    with helpers.start() as stack:
        options = scenarios.task_options(stack, stack.workers[0].hostname)
        observe.equal(send_invoice=(options["l03.send_invoice"], (3, 180)), welcome=(options["l03.welcome"], (3, 30)))
        first = scenarios.retry_countdown(stack, "l03.send_invoice")
        observe.that(send_invoice_retry_in_180_s=isinstance(first, int) and abs(first - 180) <= 1,
                     why=f"retried in {first!r}")
        fourth = scenarios.retry_countdown(stack, "l03.send_invoice", retries=3)
        observe.equal(send_invoice_after_3_retries=(fourth, "FAILURE"))
        annotated = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("annotated",),
                                                settings={"task_annotations": EVERY_TASK}))
        welcome = scenarios.task_options(stack, annotated.hostname)["l03.welcome"]
        observe.equal(annotated_welcome=(welcome, (3, 60)))
        countdown = scenarios.retry_countdown(stack, "l03.welcome", queue="annotated")
        observe.that(annotated_welcome_retry_in_60_s=isinstance(countdown, int) and abs(countdown - 60) <= 1,
                     why=f"retried in {countdown!r}")
