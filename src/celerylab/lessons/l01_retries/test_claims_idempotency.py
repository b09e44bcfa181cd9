"""Lesson 01's claims on SQLite and PostgreSQL: who delivers twice, which writes absorb re-runs, commit order, locks."""
from __future__ import annotations

import os

import pytest

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers, scenarios
from celerylab.lessons.l01_retries import tasks_delivery as delivery

pytestmark = pytest.mark.live

@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.needs("postgres"))], scope="module")
def stack(request):
    previous = os.environ.get(appdb.DATABASE_URL_ENV)
    if request.param == "postgresql":
        os.environ[appdb.DATABASE_URL_ENV] = request.getfixturevalue("postgres_url")
    else:
        os.environ[appdb.DATABASE_URL_ENV] = "sqlite:///app.db"
    try:
        with helpers.start() as running:
            yield running
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
        if previous:
            os.environ[appdb.DATABASE_URL_ENV] = previous


def test_the_stack_uses_the_database_asked_for(stack, request, observe):
    url = stack.process_env()[appdb.DATABASE_URL_ENV]
    observe.equal(database=(appdb.kind(url), request.node.callspec.params["stack"]))


def test_patterns_under_each_fault(stack, observe):
    table = {row["task"]: (row["healthy"], row["slow_ack"], row["slow_reject"])
             for row in scenarios.patterns_table(stack)}
    observe(**{f"{task.removeprefix('l01.')}_deliveries": list(counts) for task, counts in table.items()})
    assert table == {
        "l01.welcome": (1, 2, 1),
        "l01.welcome_checked": (1, 2, 1),
        "l01.welcome_at_most_once": (1, 1, 0),
    }


def test_only_a_key_at_the_provider_delivers_once_under_every_fault(stack, observe):
    (row,) = scenarios.patterns_table(stack, ("l01.welcome_keyed",))
    observe.equal(healthy=(row["healthy"], 1), slow_ack=(row["slow_ack"], 1), slow_reject=(row["slow_reject"], 1))


def test_upsert_and_set_absorb_redelivery_blind_insert_and_increment_do_not(stack, observe):
    connection = helpers.db(stack)
    appdb.execute(connection, "INSERT INTO orders (id, status, views) VALUES (5, 'paid', 0)")
    states = {}
    for task, args in (("l01.record_payment_blind", (5, "1.00")), ("l01.record_payment_upsert", (5, "1.00")),
                       ("l01.mark_shipped", (5,)), ("l01.count_view", (5,))):
        states[task] = helpers.publish_again(stack, task, args)
    observe(states=sorted({state for run in states.values() for state in run}))
    observe.equal(rows_blind=(appdb.scalar(connection, "SELECT COUNT(*) FROM invoices_blind WHERE order_id = 5"), 3),
                  rows_upsert=(appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = 5"), 1),
                  status_after_set=(appdb.scalar(connection, "SELECT status FROM orders WHERE id = 5"), "shipped"),
                  views_after_increment=(appdb.scalar(connection, "SELECT views FROM orders WHERE id = 5"), 3))
    for task, run in states.items():
        assert run == ["SUCCESS"] * 3
    connection.close()


def test_a_real_redelivery_doubles_the_increment_and_the_upsert_keeps_one_row(stack, observe):
    connection = helpers.db(stack)
    appdb.execute(connection, "INSERT INTO orders (id, status, views) VALUES (6, 'paid', 0)")
    paid = delivery.pay_and_count.delay(6, "1.00", 1)
    helpers.wait_value(stack, "SELECT views FROM orders WHERE id = 6", wanted=1)
    held = helpers.broker_messages(stack, paid.id)["unacked"]
    observe.equal(broker_unacked=(held, 1))
    stack.workers[0].kill_child()
    value = paid.get(timeout=30, propagate=False)
    observe(state=paid.state)
    observe.equal(redelivered=(helpers.redelivered_flags(stack, paid.id), [False, True]),
                  views_after_increment=(appdb.scalar(connection, "SELECT views FROM orders WHERE id = 6"), 2),
                  rows_upsert=(appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = 6"), 1))
    assert value == "done"
    connection.close()


def test_a_task_sent_before_the_commit_does_not_see_the_row(stack, observe):
    connection = helpers.db(stack)
    with appdb.transaction(connection):
        appdb.execute(connection, "INSERT INTO users (id, email) VALUES (70, 'u70@example.com')")
        early = delivery.read_user.delay(70).get(timeout=10)
    late = delivery.read_user.delay(70).get(timeout=10)
    observe.equal(sent_before_commit=(early, None), sent_after_commit=(late, "u70@example.com"))
    connection.close()


def test_select_for_update_locks_nothing_only_a_unique_key_serialises(stack, observe):
    if appdb.kind(stack.database_url) != "postgresql":
        pytest.skip("FOR UPDATE needs PostgreSQL")
    plain = scenarios.lock_on_nothing(stack, "claims_plain")
    unique = scenarios.lock_on_nothing(stack, "claims_unique")
    observe.equal(no_constraint=(plain["outcomes"], ["inserted", "inserted"]), no_constraint_rows=(plain["rows"], 2),
                  unique_key=(unique["outcomes"], ["UniqueViolation", "inserted"]), unique_key_rows=(unique["rows"], 1))


def test_deleting_keys_lets_a_reconciliation_charge_twice(stack, observe):
    outcome = scenarios.key_ttl_pitfall(stack)
    observe(**outcome)
    assert (outcome["replay"], outcome["charges_before_cleanup"]) == ("skipped", 1)
    assert outcome["charges_after_reconciliation"] == 2


@pytest.mark.needs("postgres")
def test_postgres_schema_is_dropped_on_close(observe, postgres_url):
    os.environ[appdb.DATABASE_URL_ENV] = postgres_url
    try:
        stack = helpers.start(timeline=False)
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
    url = stack.process_env()[appdb.DATABASE_URL_ENV]
    schema = url.rsplit("search_path%3D", 1)[1]
    stack.close()
    connection = appdb.connect(postgres_url)
    left = appdb.scalar(connection, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?",
                        (schema,))
    observe.equal(schemas_left=(left, 0))
    connection.close()
