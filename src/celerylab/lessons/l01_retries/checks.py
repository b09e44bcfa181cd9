"""Lesson 01's exercise checks: each runs the learner's module on a live stack under the lesson's faults."""
from __future__ import annotations

from celerylab import appdb
from celerylab.grading.engine import CheckRun, exercise
from celerylab.lessons.l01_retries import helpers


def started(run: CheckRun):
    return run.stack(**helpers.stack_options(timeline=False))


@exercise("l01.welcome_once")
def welcome_once(run: CheckRun) -> None:
    with started(run) as stack:
        for fault, hidden in (("slow_ack", False), ("healthy", False), ("slow_reject", True)):
            if hidden and not run.include_hidden:
                continue
            outcome = helpers.run_welcome(stack, "ex.welcome", fault)
            run.expect(f"l01.check.deliveries.{fault}", 1, outcome["deliveries"], hidden=hidden)
            run.expect(f"l01.check.state.{fault}", "SUCCESS", outcome["state"], hidden=hidden)


@exercise("l01.narrow_autoretry")
def narrow_autoretry(run: CheckRun) -> None:
    with started(run) as stack:
        provider = helpers.email(stack)
        provider.reset()
        refused = stack.app.send_task("ex.notify", ("not-an-address",))
        refused.get(timeout=30, propagate=False)
        run.expect("l01.check.permanent_attempts", 1, provider.stats()["requests"])
        run.expect("l01.check.permanent_state", "FAILURE", refused.state)
        provider.reset()
        provider.fault("slow_reject", times=1, delay=0.6)
        transient = stack.app.send_task("ex.notify", ("user1@example.com",))
        transient.get(timeout=30, propagate=False)
        run.expect("l01.check.transient_attempts", 2, provider.stats()["requests"])
        run.expect("l01.check.transient_state", "SUCCESS", transient.state)


@exercise("l01.payment_upsert")
def payment_upsert(run: CheckRun) -> None:
    with started(run) as stack:
        states = helpers.redeliver(stack, "ex.record_payment", (42, "99.90"), times=3)
        run.expect("l01.check.redelivered_states", ["SUCCESS"] * 3, states)
        connection = helpers.db(stack)
        rows = appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = 42")
        run.expect("l01.check.invoice_rows", 1, rows)
        helpers.redeliver(stack, "ex.record_payment", (42, "120.00"), times=1)
        amount = appdb.scalar(connection, "SELECT amount FROM invoices WHERE order_id = 42")
        run.expect("l01.check.latest_amount", "120.00", amount, hidden=True)
        connection.close()
