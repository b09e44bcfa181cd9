"""Lesson 01's claims as regression tests, on SQLite and on PostgreSQL: who delivers twice, who once."""
from __future__ import annotations

import os

import pytest

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers, scenarios

pytestmark = pytest.mark.live  # starts processes

POSTGRES = os.environ.get("CELERYLAB_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.needs("postgres"))], scope="module")
def stack(request):
    previous = os.environ.get(appdb.DATABASE_URL_ENV)
    if request.param == "postgresql":
        os.environ[appdb.DATABASE_URL_ENV] = POSTGRES
    else:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
    try:
        with helpers.start() as running:
            yield running
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
        if previous:
            os.environ[appdb.DATABASE_URL_ENV] = previous


def test_the_stack_uses_the_database_asked_for(stack, request):
    url = stack.process_env()[appdb.DATABASE_URL_ENV]
    assert appdb.kind(url) == request.node.callspec.params["stack"]


def test_patterns_under_each_fault(stack):
    table = {row["task"]: (row["healthy"], row["slow_ack"], row["slow_reject"])
             for row in scenarios.patterns_table(stack)}
    assert table == {
        "l01.welcome": (1, 2, 1),
        "l01.welcome_checked": (1, 2, 1),
        "l01.welcome_at_most_once": (1, 1, 0),
        "l01.welcome_keyed": (1, 1, 1),
    }


def test_upsert_and_set_absorb_redelivery_blind_insert_and_increment_do_not(stack):
    connection = helpers.db(stack)
    appdb.execute(connection, "INSERT INTO orders (id, status, views) VALUES (5, 'paid', 0)")
    for task, args in (("l01.record_payment_blind", (5, "1.00")), ("l01.record_payment_upsert", (5, "1.00")),
                       ("l01.mark_shipped", (5,)), ("l01.count_view", (5,))):
        assert helpers.redeliver(stack, task, args) == ["SUCCESS"] * 3
    assert appdb.scalar(connection, "SELECT COUNT(*) FROM invoices_blind WHERE order_id = 5") == 3
    assert appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = 5") == 1
    assert appdb.scalar(connection, "SELECT status FROM orders WHERE id = 5") == "shipped"
    assert appdb.scalar(connection, "SELECT views FROM orders WHERE id = 5") == 3
    connection.close()


def test_deleting_keys_lets_a_reconciliation_charge_twice(stack):
    outcome = scenarios.key_ttl_pitfall(stack)
    assert (outcome["replay"], outcome["charges_before_cleanup"]) == ("skipped", 1)
    assert outcome["charges_after_reconciliation"] == 2


@pytest.mark.needs("postgres")
def test_postgres_schema_is_dropped_on_close():
    os.environ[appdb.DATABASE_URL_ENV] = POSTGRES
    try:
        stack = helpers.start(timeline=False)
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
    url = stack.process_env()[appdb.DATABASE_URL_ENV]
    schema = url.rsplit("search_path%3D", 1)[1]
    stack.close()
    connection = appdb.connect(POSTGRES)
    assert appdb.scalar(connection, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?",
                        (schema,)) == 0
    connection.close()
