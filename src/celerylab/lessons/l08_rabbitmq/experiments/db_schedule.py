"""A reminder stored in the application's database (no countdown on the message), sent when due by
`l08.enqueue_due`, a Beat entry every POLL s: what the worker holds while it waits, when it runs, how many times."""
import time
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l08_rabbitmq import helpers, tasks
from celerylab.polling import until

COUNTDOWN = 6  # seconds ahead the reminder is due
POLL = 2.0     # seconds between the Beat entry's looks at the schedule


@dataclass
class DbSchedule:
    held_by_worker: int
    unacked: int               # the reminder queue's unacknowledged messages 1 s in
    ack_timeout: str
    worker_alive: bool
    ran: int
    waited: float | None       # seconds from storing it until it ran
    late: float | None         # seconds past its time (the poll's cost)
    poll: float
    marked_sent: bool          # the row is marked sent
    warned_direct: bool = False


def db_schedule(node) -> DbSchedule:
    queue = helpers.queue_name("db")
    # Beat's polls go to a queue of their own: a poll the worker holds at that moment is not counted as the reminder
    with helpers.experiment(node, queue, poll=POLL, poll_queue=f"{queue}-polls") as stack:
        worker = stack.workers[0]
        connection = stack.db()
        sent = time.time()
        tasks.schedule(connection, "r", "l08.remind", ("r",), sent + COUNTDOWN)  # what the view does
        helpers.wait(1.0)
        held, unacked = helpers.scheduled(stack), helpers.unacked(node, queue)
        ran = until(lambda: helpers.when(stack, "r:start"), COUNTDOWN + POLL + 8)
        helpers.wait(POLL + 0.5)  # the next look at the schedule: a second send would have come by now
        sent_at = appdb.scalar(connection, "SELECT sent_at FROM scheduled WHERE label = ?", ("r",))
        connection.close()
        return DbSchedule(held, unacked, helpers.ack_timeout_line(worker), worker.alive,
                          len(helpers.runs(stack, "r:start")), ran - sent if ran else None,
                          ran - (sent + COUNTDOWN) if ran else None, POLL, sent_at is not None)
