"""Lesson 01's exercise checks: each runs the learner's module on a live stack under the faults its statement names."""
from __future__ import annotations

import uuid

from celerylab import appdb
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l01_retries import helpers


def started(run: CheckRun):
    return run.stack(**helpers.stack_options(timeline=False))


@exercise("l01.welcome_once")
def welcome_once(run: CheckRun) -> None:
    """(a) healthy, (b) slow_ack, (c) slow_reject: one delivery and SUCCESS each; hidden: (b), (c) for user 2, 0.9 s."""
    cases = [("healthy", 1, None, False), ("slow_ack", 1, None, False), ("slow_reject", 1, None, False)]
    if run.graded(4):
        cases += [("slow_ack", 2, 0.9, True), ("slow_reject", 2, 0.9, True)]
    with started(run) as stack:
        for fault, user_id, delay, hidden in cases:
            outcome = helpers.run_welcome(stack, "ex.welcome", fault, user_id=user_id, delay=delay)
            run.expect(f"l01.check.deliveries.{fault}", 1, outcome["deliveries"], hidden=hidden)
            run.expect(f"l01.check.state.{fault}", "SUCCESS", outcome["state"], hidden=hidden)


def notify(stack, provider, to: str, fault: dict | None) -> tuple[str, int]:
    provider.reset()
    if fault:
        provider.fault(**fault)
    result = stack.app.send_task("ex.notify", (to,))
    result.get(timeout=30, propagate=False)
    return result.state, provider.stats()["requests"]


@exercise("l01.narrow_autoretry")
def narrow_autoretry(run: CheckRun) -> None:
    """(a) refused: FAILURE, 1 request; (b) one timeout: SUCCESS, 2; (c) down twice: SUCCESS, 3; hidden: down once."""
    with started(run) as stack:
        provider = helpers.email(stack)
        state, requests = notify(stack, provider, "not-an-address", None)
        run.expect("l01.check.permanent_attempts", 1, requests)
        run.expect("l01.check.permanent_state", "FAILURE", state)
        state, requests = notify(stack, provider, "user1@example.com", {"mode": "slow_reject", "times": 1, "delay": 0.6})
        run.expect("l01.check.transient_attempts", 2, requests)
        run.expect("l01.check.transient_state", "SUCCESS", state)
        for times, hidden in ((2, False), (1, True)):
            if hidden and not run.graded(2):
                continue
            state, requests = notify(stack, provider, "user2@example.com", {"mode": "unavailable", "times": times})
            run.expect("l01.check.unavailable_attempts", times + 1, requests, hidden=hidden, times=times)
            run.expect("l01.check.unavailable_state", "SUCCESS", state, hidden=hidden, times=times)


@exercise("l01.payment_upsert")
def payment_upsert(run: CheckRun) -> None:
    """Three runs of one message: SUCCESS each, one row; run again with a new amount: the new amount."""
    cases = [(42, "99.90", "120.00", False)] + ([(43, "10.00", "12.50", True)] if run.graded(3) else [])
    with started(run) as stack:
        connection = helpers.db(stack)
        for order_id, amount, later, hidden in cases:
            states = helpers.publish_again(stack, "ex.record_payment", (order_id, amount), times=3)
            run.expect("l01.check.redelivered_states", ["SUCCESS"] * 3, states, hidden=hidden)
            rows = appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = ?", (order_id,))
            run.expect("l01.check.invoice_rows", 1, rows, hidden=hidden, order=order_id)
            helpers.publish_again(stack, "ex.record_payment", (order_id, later), times=1)
            stored = appdb.scalar(connection, "SELECT amount FROM invoices WHERE order_id = ?", (order_id,))
            run.expect("l01.check.latest_amount", later, stored, hidden=hidden, order=order_id)
        connection.close()


def charges(connection, invoice_no: str) -> int:
    return appdb.scalar(connection, "SELECT COUNT(*) FROM invoice_charges WHERE invoice_no = ?", (invoice_no,))


@exercise("l01.charge_once")
def charge_once(run: CheckRun) -> None:
    """(a) one message x3; (b) cleanup, then a new task for the same invoice; (c) a second invoice; hidden: order 31."""
    cases = [(7, False)] + ([(31, True)] if run.graded(5) else [])
    with started(run) as stack:
        connection = helpers.db(stack)
        for order_id, hidden in cases:
            first, second = f"INV-{uuid.uuid4().hex[:6]}", f"INV-{uuid.uuid4().hex[:6]}"
            states = helpers.publish_again(stack, "ex.charge", (order_id, first, "99.90"), times=3)
            run.expect("l01.check.charge_states", ["SUCCESS"] * 3, states, hidden=hidden)
            run.expect("l01.check.charge_rows_same_message", 1, charges(connection, first), hidden=hidden)
            appdb.execute(connection, "DELETE FROM processed_events")
            again = stack.app.send_task("ex.charge", (order_id, first, "99.90"))
            again.get(timeout=10, propagate=False)
            run.expect("l01.check.charge_reconciliation_state", "SUCCESS", again.state, hidden=hidden)
            run.expect("l01.check.charge_rows_reconciliation", 1, charges(connection, first), hidden=hidden)
            other = stack.app.send_task("ex.charge", (order_id, second, "15.00"))
            other.get(timeout=10, propagate=False)
            run.expect("l01.check.charge_rows_second_invoice", 1, charges(connection, second), hidden=hidden)
        connection.close()
