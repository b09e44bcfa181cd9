"""Lesson 08's reproductions on the private node: each starts its stack, makes the incident happen and returns what it saw."""
from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from celery import Celery

from celerylab import appdb
from celerylab.deploy.canary import healthy
from celerylab.lessons.l02_workers.helpers import lab_transport
from celerylab.lessons.l08_rabbitmq import helpers, tasks
from celerylab.polling import until
from celerylab.stack.ports import free_port

LONG = 6.0        # seconds of work: twice the lab's consumer_timeout (3 s)
COUNTDOWN = 6     # a delayed task's countdown, also twice the timeout
LOOPING = 4       # starts that prove a poison message loops: one more than a delivery limit of 2 allows
KILLED = 1.0      # seconds of work of the task whose worker is SIGKILLed mid-run
VISIBILITY = 3    # the lab's Redis visibility_timeout (kombu's default: 3600 s), swept every 0.5 s


def long_task(node, arguments: dict | None = None, **worker_settings) -> dict:
    """An `l08.report` of LONG s on a worker with `worker_settings` (on a classic queue declared with `arguments`, if
    given); what became of the worker, the task and its message."""
    queue = helpers.queue_name("long")
    queues = {queue: {"exchange": queue, "routing_key": queue, "queue_arguments": arguments}} if arguments else None
    with helpers.experiment(node, queue, queues=queues, **worker_settings) as stack:
        worker = stack.workers[0]
        sent = time.monotonic()
        result = stack.app.send_task("l08.report", ("long", LONG), queue=queue)
        died = helpers.ack_timeout_within(worker, LONG + 2)
        after = time.monotonic() - sent
        exited = helpers.exits_within(worker, helpers.EXPECTED) if died else False
        exited_after = time.monotonic() - sent
        until(lambda: helpers.runs(stack, "long:end"), helpers.EXPECTED) if died else result.get(timeout=LONG + 10)
        seen = {"ack_timeout": helpers.ack_timeout_line(worker), "timeout_after": after if died else None,
                "exited_after": exited_after if exited else None,
                "worker_alive": worker.alive, "state": result.state, "ran": len(helpers.runs(stack, "long:start")),
                "finished": len(helpers.runs(stack, "long:end")), "back_in_queue": helpers.ready(node, queue)}
        if died:  # what a process manager does next: the worker comes back, gets the message again, and runs it again
            worker.restart()
            seen["ran_after_restart"] = len(until(lambda: helpers.runs(stack, "long:start")[1:], helpers.EXPECTED) or [None]) + 1
            worker.kill()
        del result
        return seen


def delayed_task(node, *, queue_type: str | None = None, exchange_type: str = "direct", **worker_settings) -> dict:
    """An `l08.remind` sent with a COUNTDOWN s countdown (to a quorum queue when `queue_type` says so, on an exchange
    of `exchange_type`): where it waits, when it runs, what happens to the worker."""
    queue = helpers.queue_name("eta")
    queues = {queue: helpers.quorum(queue, exchange_type)} if queue_type == "quorum" else None
    with helpers.experiment(node, queue, queues=queues, **worker_settings) as stack:
        worker = stack.workers[0]
        sent = time.time()
        stack.app.send_task("l08.remind", ("r",), countdown=COUNTDOWN, queue=queue)
        helpers.wait(1.0)
        seen = {"held_by_worker": helpers.scheduled(stack), "levels": helpers.delayed_levels(node)}
        died = helpers.ack_timeout_within(worker, COUNTDOWN + 2) and helpers.exits_within(worker, helpers.EXPECTED)
        ran = until(lambda: helpers.when(stack, "r:start"), COUNTDOWN + 4) if not died else None
        seen.update({"ack_timeout": helpers.ack_timeout_line(worker), "worker_alive": worker.alive,
                     "ran": len(helpers.runs(stack, "r:start")), "waited": ran - sent if ran else None,
                     "warned_direct": helpers.NATIVE_DELAY_WARNING in worker.logs(),
                     "back_in_queue": helpers.ready(node, queue)})
        return seen


POLL = 2.0        # seconds between the Beat entry's looks at the application's schedule


def db_schedule(node) -> dict:
    """A reminder COUNTDOWN s ahead stored in the application's database (no countdown on the message) and sent when
    due by `l08.enqueue_due`, a Beat entry every POLL s: what the worker holds while it waits, when the reminder runs
    and how late (the poll's cost), how many times."""
    queue = helpers.queue_name("db")
    with helpers.experiment(node, queue, poll=POLL) as stack:
        worker = stack.workers[0]
        connection = stack.db()
        sent = time.time()
        tasks.schedule(connection, "r", "l08.remind", ("r",), sent + COUNTDOWN)
        helpers.wait(1.0)
        seen = {"held_by_worker": helpers.scheduled(stack), "unacked": helpers.unacked(node, queue)}
        ran = until(lambda: helpers.when(stack, "r:start"), COUNTDOWN + POLL + 8)
        helpers.wait(POLL + 0.5)  # the next look at the schedule: a second send would have come by now
        sent_at = appdb.scalar(connection, "SELECT sent_at FROM scheduled WHERE label = ?", ("r",))
        connection.close()
        seen.update({"ack_timeout": helpers.ack_timeout_line(worker), "worker_alive": worker.alive,
                     "ran": len(helpers.runs(stack, "r:start")), "waited": ran - sent if ran else None,
                     "late": ran - (sent + COUNTDOWN) if ran else None, "poll": POLL, "marked_sent": sent_at is not None,
                     "warned_direct": False, "back_in_queue": helpers.ready(node, queue)})
        return seen


DEATH_COUNTDOWN = 3   # the countdown of the reminder whose worker dies while it waits
DOWN_PAST = 0.5       # seconds past the reminder's time the worker stays down
SIGNALS = {"SIGKILL": signal.SIGKILL, "SIGTERM": signal.SIGTERM}


def death_while_delayed(node, *, native: bool, sig: str) -> dict:
    """A reminder with a DEATH_COUNTDOWN s countdown, on a quorum queue behind a topic exchange (native delayed
    delivery) or a classic queue (held in the worker's memory); 1 s after the send the worker's whole process group
    gets `sig` (SIGKILL, or SIGTERM as systemd sends it), and the worker stays down until DOWN_PAST s past the
    reminder's time, then is started again: whether the reminder ran while no worker was up, whether and when it runs
    once one is back (counted from the restart's start: the worker's start-up is included)."""
    queue = helpers.queue_name("death")
    queues = {queue: helpers.quorum(queue, "topic")} if native else None
    with helpers.experiment(node, queue, queues=queues) as stack:
        worker = stack.workers[0]
        sent = time.time()
        stack.app.send_task("l08.remind", ("d",), countdown=DEATH_COUNTDOWN, queue=queue)
        helpers.wait(1.0)
        held = helpers.scheduled(stack)
        worker.kill(SIGNALS[sig], group=True)
        helpers.wait(max(0.0, sent + DEATH_COUNTDOWN + DOWN_PAST - time.time()))  # down past the reminder's time
        ran_while_down = len(helpers.runs(stack, "d:start"))
        # a classic queue's count is exact; a quorum queue's lags behind (see helpers.delayed_levels): not read there
        in_queue = None if native else helpers.ready(node, queue)
        warm = "Warm shutdown" in worker.logs()
        back = time.time()
        worker.restart()
        ran = until(lambda: helpers.when(stack, "d:start"), 20)
        helpers.wait(0.5)  # a second copy would start right behind the first (a requeued message comes back in ms)
        return {"held_by_worker": held, "ran_while_down": ran_while_down, "in_queue_while_down": in_queue,
                "warm_shutdown": warm, "ran": len(helpers.runs(stack, "d:start")),
                "ran_after_back": ran - back if ran else None,
                "late": ran - (sent + DEATH_COUNTDOWN) if ran else None,
                "ack_timeout": helpers.ack_timeout_line(worker), "worker_alive": worker.alive}


def early_ack_second(node) -> dict:
    """A LONG s report with the early ack, and a short one sent right after it, on one worker (prefetch 1)."""
    queue = helpers.queue_name("early")
    with helpers.experiment(node, queue, worker_prefetch_multiplier=1) as stack:
        worker = stack.workers[0]
        first = stack.app.send_task("l08.report", ("first", LONG), queue=queue)
        second = stack.app.send_task("l08.report", ("second", 0.1), queue=queue)
        died = helpers.ack_timeout_within(worker, LONG + 2) and helpers.exits_within(worker, helpers.EXPECTED)
        until(lambda: helpers.runs(stack, "first:end"), helpers.EXPECTED)
        seen = {"timed_out": bool(helpers.ack_timeout_line(worker)), "worker_alive": worker.alive, "died": died,
                "first": first.state, "second": second.state, "second_ran": len(helpers.runs(stack, "second:start")),
                "back_in_queue": helpers.ready(node, queue)}
        del first, second
        return seen


def poison(node, *, arguments: dict | None = None, **worker_settings) -> dict:
    """An `l08.poison` (it kills its pool process) on a worker with `worker_settings`, on a quorum queue with `arguments`
    (None: a classic queue). On the classic queue, watch until it has started LOOPING times; on the quorum queue, until
    every run's death is handled and the queue holds nothing, and still so helpers.SETTLE s later."""
    queue = helpers.queue_name("poison")
    queues = {queue: helpers.quorum(queue, **arguments)} if arguments is not None else None
    with helpers.experiment(node, queue, queues=queues, **worker_settings) as stack:
        worker = stack.workers[0]
        stack.app.send_task("l08.poison", ("p",), queue=queue)
        started = lambda: len(helpers.runs(stack, "p:start"))  # noqa: E731
        # settled: every run's death handled, nothing ready in the queue, and still so helpers.SETTLE s later
        settled = lambda: started() and helpers.deaths_handled(worker) >= started() and helpers.ready(node, queue) == 0  # noqa: E731
        if arguments is None:
            until(lambda: started() >= LOOPING, 40, step=0.2)
        else:
            while until(settled, 40, step=0.2):
                before = started()
                helpers.wait(helpers.SETTLE)
                if settled() and started() == before:
                    break
        return {"runs": started(), "looping": started() >= LOOPING, "in_queue": helpers.ready(node, queue),
                "worker_alive": worker.alive, "timed_out": bool(helpers.ack_timeout_line(worker)),
                "worker_lost": helpers.deaths_handled(worker)}


def redelivery(node) -> dict:
    """An `acks_late` `l08.report` of KILLED s on one of two workers, SIGKILLed with its children once the task has
    started; on the node (None: on a Redis broker with the lab's visibility_timeout): when the other worker starts it
    again."""
    queue = helpers.queue_name("kill")
    transport = {} if node is not None else {"broker_transport_options": lab_transport(visibility_timeout=VISIBILITY)}
    with helpers.experiment(node, queue, workers=2, task_acks_late=True, **transport) as stack:
        result = stack.app.send_task("l08.report", ("k", KILLED), queue=queue)
        until(lambda: helpers.runs(stack, "k:start"), 20, step=0.05)
        holder = until(lambda: [worker for worker in stack.workers if result.id in worker.logs()],  # noqa: F821 (before the del)
                       helpers.EXPECTED)[0]
        killed = time.time()
        holder.kill(group=True)
        again = until(lambda: helpers.runs(stack, "k:start")[1:], VISIBILITY + 10, step=0.05)
        state = result.get(timeout=KILLED + 10) and result.state if again else result.state
        first = float(helpers.runs(stack, "k:start")[0][-1])
        seen = {"ran": len(helpers.runs(stack, "k:start")), "state": state,
                "redelivered_after": float(again[0][-1]) - killed if again else None,
                "since_first_start": float(again[0][-1]) - first if again else None}
        del result
        return seen


PUBLISHES = 300   # messages published to measure what a publisher confirm costs each one


def publisher(url: str, **transport_options) -> Celery:
    """A producer-only Celery app on `url` (no result backend), with Celery's default publish retry policy."""
    return Celery("l08-publisher", broker=url, set_as_current=False,
                  broker_transport_options=transport_options or {})


def broker_down() -> dict:
    """What `send_task` (what `.delay()` calls) does when nothing listens at the broker's address: after how long it
    raises, what, and the publish retry policy it followed (Celery's defaults)."""
    app = publisher(f"amqp://guest:guest@127.0.0.1:{free_port()}//")
    started = time.monotonic()
    try:
        app.send_task("l08.echo", ("x",))
        raised = None
    except Exception as error:  # noqa: BLE001 - the class is what is measured
        raised = f"{type(error).__module__}.{type(error).__name__}"
    after = time.monotonic() - started
    seen = {"raised": raised, "raised_after": after, "publish_retry": app.conf.task_publish_retry,
            "retry_policy": dict(app.conf.task_publish_retry_policy)}
    app.close()
    return seen


def publish_cost(node, *, confirm: bool) -> dict:
    """PUBLISHES `send_task`s to a queue nobody consumes, with publisher confirms on or off: milliseconds per message,
    whether the channel was in confirm mode, and how many messages the queue holds right after the last send."""
    queue = helpers.queue_name("pub")
    app = publisher(node.url, **({"confirm_publish": True} if confirm else {}))
    app.send_task("l08.echo", ("warm",), queue=queue)  # the connection and the queue's declaration, not counted
    started = time.perf_counter()
    for number in range(PUBLISHES):
        app.send_task("l08.echo", (number,), queue=queue)
    elapsed = time.perf_counter() - started
    with app.producer_or_acquire() as producer:
        confirming = producer.channel._confirm_selected  # amqp sets it when the channel enters confirm mode
    app.close()
    return {"ms_per_message": 1000 * elapsed / PUBLISHES, "confirm_mode": confirming,
            "published": (until(lambda: helpers.ready(node, queue) == PUBLISHES + 1, helpers.EXPECTED) and helpers.ready(node, queue)) - 1}


ALARMED = 1.0     # seconds the memory alarm lasts once publishers have sent into it
PRODUCTION_WATERMARK = "0.4"  # RabbitMQ's default vm_memory_high_watermark: 40% of the machine's memory


def memory_alarm(node) -> dict:
    """Two publishers, publisher confirms off and on, each send 3 tasks while the node's memory alarm is raised
    (watermark near 0) for ALARMED s, then lifted: when each `send_task` loop returned and how many messages the queue
    held during the alarm and after."""
    queues = {"off": helpers.queue_name("blocked"), "on": helpers.queue_name("blocked")}
    apps = {"off": publisher(node.url), "on": publisher(node.url, confirm_publish=True)}
    for name, app in apps.items():
        app.send_task("l08.echo", ("warm",), queue=queues[name])  # connection and queue ready before the alarm
    node.ctl("set_vm_memory_high_watermark", "0.0000001")
    until(lambda: "memory" in node.ctl("eval", "rabbit_alarm:get_alarms()."), helpers.EXPECTED)
    started, returned = time.monotonic(), {}

    def send(name: str) -> None:
        for number in range(3):
            apps[name].send_task("l08.echo", (number,), queue=queues[name])
        returned[name] = time.monotonic() - started

    threads = {name: threading.Thread(target=send, args=(name,), daemon=True) for name in apps}
    for thread in threads.values():
        thread.start()
    helpers.wait(ALARMED)
    held = helpers.messages(node)
    during = {name: held.get(queue, 0) - 1 for name, queue in queues.items()}
    returned_during = {name: name in returned for name in apps}
    node.ctl("set_vm_memory_high_watermark", PRODUCTION_WATERMARK)
    lifted = time.monotonic() - started
    for thread in threads.values():
        thread.join(helpers.EXPECTED)
    held = until(lambda: [found for found in [helpers.messages(node)]
                          if all(found.get(queue) == 4 for queue in queues.values())], helpers.EXPECTED) or [helpers.messages(node)]
    after = {name: held[0].get(queue, 0) - 1 for name, queue in queues.items()}
    for app in apps.values():
        app.close()
    return {name: {"returned_during_alarm": returned_during[name], "returned_after": returned.get(name),
                   "alarm_lifted_after": lifted, "in_queue_during_alarm": during[name],
                   "in_queue_after": after[name]} for name in apps}


DOWNTIME = 1.0    # seconds the broker stays down in the restart
RECONNECTED = "Connected to amqp://"


def check(stack, queue: str, timeout: float = 3.0) -> dict:
    """The course's health check (`celerylab.deploy.canary.healthy`) on the stack's worker; a publish that cannot
    reach the broker counts as a failed canary."""
    try:
        return healthy(stack.app, queue, stack.workers[0].hostname, timeout=timeout, ping_timeout=1.0)
    except Exception:  # noqa: BLE001 - kombu's OperationalError while the broker is not back
        return {"ping": False, "canary": False}


def broker_restart(node) -> dict:
    """The node's RabbitMQ application stopped for DOWNTIME s (every connection closed, nothing listening) and
    started again on the same port and data, under an idle worker with Celery's defaults: whether the worker comes back
    and consumes (the health check), and how long after the broker is back; then the worker made to stop consuming
    its queue (`cancel_consumer`, the symptom the trackers report) and the same check."""
    queue = helpers.queue_name("restart")
    with helpers.experiment(node, queue) as stack:
        worker = stack.workers[0]
        before = check(stack, queue)
        node.ctl("stop_app")
        helpers.wait(DOWNTIME)
        node.ctl("start_app")
        back = time.monotonic()
        # the worker logs `Connected to amqp://...` when it starts and again each time it reconnects
        reconnected = until(lambda: worker.logs().count(RECONNECTED) >= 2, helpers.EXPECTED, step=0.1)
        reconnected_after = time.monotonic() - back if reconnected else None
        # right after, the producer's connection is remade on its next publish, and a ping broadcast before the worker
        # binds its control queue again is lost: ask again until both answer (the checks it took are counted)
        checks = []
        answered = until(lambda: [found for found in [check(stack, queue)] if not checks.append(found)
                                  and found["canary"] and found["ping"]], helpers.EXPECTED, step=0.2)
        after = {"alive": worker.alive, "reconnected_after": reconnected_after, "checks": len(checks),
                 **(answered[0] if answered else check(stack, queue))}
        stack.app.control.cancel_consumer(queue, destination=[worker.hostname], reply=True)
        stopped = check(stack, queue, timeout=1.0)  # a canary nobody consumes: its deadline is the wait
        helpers.let_go(stack)
        return {"before": before, "after": after, "stopped": stopped,
                "lost_connection": "Connection to broker lost" in worker.logs()}


def side_by_side(cases: dict) -> dict:
    """Run every ``{name: callable}`` at once (each on its own stack and queue of the node): ``{name: what it returned}``."""
    with ThreadPoolExecutor(max_workers=len(cases)) as pool:
        futures = {name: pool.submit(case) for name, case in cases.items()}
        return {name: future.result() for name, future in futures.items()}
