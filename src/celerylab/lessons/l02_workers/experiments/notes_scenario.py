"""The notes' scenario 1: the same payment with the default ack and with acks_late, its worker killed before COMMIT."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack


@dataclass
class NotesScenario:
    after_kill: dict[int, tuple]        # order id: (status, coupon balance, events) right after the kill
    redelivery: str                     # what the acks_late payment returned once redelivered
    same_event_again: str               # what the same event, sent again, returned
    after_redelivery: dict[int, tuple]  # order id: (status, coupon balance, events) at the end


def notes_scenario(lab: Stack, visibility_timeout: float = 3) -> NotesScenario:
    worker = helpers.worker("shop", concurrency=2, broker_transport_options=helpers.lab_transport(visibility_timeout))
    with helpers.experiment(lab, worker, database=helpers.SHOP) as s:
        tasks.pay.apply_async((1, "evt-1"), queue="shop")              # the notes' task: default ack
        paid = tasks.pay_late.apply_async((2, "evt-2"), queue="shop")  # the same one, with acks_late=True
        runs.wait(s, "evt-1"), runs.wait(s, "evt-2")                   # both tasks started
        helpers.wait_for(lambda: runs.events(s, "evt-1", "hold") or runs.events(s, "evt-2", "hold"), timeout=10)
        s.workers[0].kill()                                            # before the COMMIT
        after_kill = {order: helpers.shop(s, order) for order in (1, 2)}
        s.workers[0].restart()
        redelivery = helpers.returned(paid, timeout=10)
        duplicate = helpers.returned(tasks.pay_late.apply_async((2, "evt-2"), queue="shop"), timeout=10)
        return NotesScenario(after_kill, redelivery, duplicate, {order: helpers.shop(s, order) for order in (1, 2)})
