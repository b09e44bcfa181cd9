"""Misspelled retry settings, task_annotations and a base class, as lesson 03's experiments measure them."""
from __future__ import annotations

import pytest

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.lessons.l03_silent_defects.experiments.annotated_worker import annotated_worker
from celerylab.lessons.l03_silent_defects.experiments.annotation_table import annotation_table
from celerylab.lessons.l03_silent_defects.experiments.base_class import base_class
from celerylab.lessons.l03_silent_defects.experiments.conf_keys import conf_keys
from celerylab.lessons.l03_silent_defects.experiments.retry_wait import registered, retry_countdown, retry_wait
from celerylab.lessons.l03_silent_defects.experiments.unknown_settings import unknown_settings


def test_misspelled_keys_are_stored_and_ignored(observe):
    keys = conf_keys()
    options = annotation_table().rows["task_max_retries, task_default_retry_delay"]
    observe.equal(conf_task_default_retry_delay=(keys.conf_task_default_retry_delay, 60),
                  task_default_retry_delay=(keys.task_default_retry_delay, 180),
                  plain=(options["plain"], (3, 180)), declared=(options["declared"], (3, 30)))


def test_star_annotation_overrides_the_decorator_and_named_annotations(observe):
    rows = annotation_table().rows
    star, named = rows["task_annotations '*'"], rows["'*' + 'declared': 7"]
    observe.equal(plain=(star["plain"], (3, 60)), declared=(star["declared"], (3, 60)),
                  declared_also_named_7=(named["declared"], (3, 60)))


def test_base_class_gives_defaults_the_decorator_overrides(observe):
    options = base_class().rows["task_cls=Defaults"]
    observe.equal(plain=(options["plain"], (3, 60)), declared=(options["declared"], (3, 30)))


def test_difflib_fixes_typos_and_misleads_on_task_attributes(observe):
    found = unknown_settings()
    nearest = {row["key"]: row["closest"] for row in found.unknown + found.typos}
    attribute = {row["key"]: row["task_attribute"] for row in found.unknown}
    expected = {"task_acks_lat": "task_acks_late", "task_max_retries": "elasticsearch_max_retries",
                "task_default_retry_delay": "task_default_routing_key"}
    observe.equal(**{key: (nearest.get(key), near) for key, near in expected.items()},
                  task_max_retries_is_a_setting=("task_max_retries" not in nearest, False),
                  task_has_max_retries=(attribute.get("task_max_retries"), True))


@pytest.mark.live
def test_real_retry_countdowns_misspelled_and_annotated(observe):
    with helpers.start() as stack:
        worker = stack.workers[0]
        options = helpers.retry_options(registered(stack, worker.hostname))
        observe.equal(send_invoice=(options["l03.send_invoice"], (3, 180)), welcome=(options["l03.welcome"], (3, 30)))
        first = retry_wait(stack, worker, "l03.send_invoice").countdown
        observe.that(send_invoice_retry_in_180_s=isinstance(first, int) and abs(first - 180) <= 1,
                     why=f"retried in {first!r}")
        fourth = retry_countdown(stack, "l03.send_invoice", retries=3)
        observe.equal(send_invoice_after_3_retries=(fourth, "FAILURE"))
        welcome = annotated_worker(stack)
        observe.equal(annotated_welcome=(helpers.retry_options(welcome.registered)["l03.welcome"], (3, 60)))
        countdown = welcome.countdown
        observe.that(annotated_welcome_retry_in_60_s=isinstance(countdown, int) and abs(countdown - 60) <= 1,
                     why=f"retried in {countdown!r}")
