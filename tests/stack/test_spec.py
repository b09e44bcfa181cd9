"""StackSpec: a stack declared as data (frozen, lists as tuples, read-only dicts), its variants and what it starts."""
from __future__ import annotations

import dataclasses

import pytest

from celerylab.stack import StackSpec, WorkerSpec


def test_a_spec_is_frozen_data_and_a_variant_leaves_it_unchanged():
    settings = {"result_expires": 3}
    spec = StackSpec("lesson.tasks", workers=[WorkerSpec(pool="prefork")], settings=settings,
                     database=["CREATE TABLE t (x)"], http_apps={"shop": "lesson.web:api"})
    settings["result_expires"] = 9  # the caller's dict is copied
    assert spec.settings == {"result_expires": 3} and spec.workers == (WorkerSpec(pool="prefork"),)
    assert spec.database == ("CREATE TABLE t (x)",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.flower = True
    with pytest.raises(TypeError):
        spec.http_apps["other"] = "x:api"
    variant = spec.replace(flower=True, http_apps={})
    assert variant.flower and not variant.http_apps and variant.settings == spec.settings
    assert not spec.flower and spec.http_apps == {"shop": "lesson.web:api"}
    assert spec.replace() is spec


def test_what_a_spec_starts():
    assert StackSpec("a", workers=2).worker_specs() == [WorkerSpec(), WorkerSpec()]
    assert StackSpec("a", workers=(WorkerSpec(queues=("q",)),)).worker_specs() == [WorkerSpec(queues=("q",))]
    assert not StackSpec("a").wants_database() and StackSpec("a").schema_statements() == []
    assert StackSpec("a", database=True).wants_database()
    assert StackSpec("a", database=["S1"]).schema_statements() == ["S1"]
    only_schema = StackSpec("a", schema=["S2"])
    assert only_schema.wants_database() and only_schema.schema_statements() == ["S2"]
