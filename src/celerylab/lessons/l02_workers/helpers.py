"""Lesson 02's notebook helpers: one broker for the page, a short-lived stack per experiment, lab settings."""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from kombu.transport.redis import Channel

from celerylab import appdb, localized
from celerylab.polling import read_until
from celerylab.stack import Stack, WorkerSpec

APP = "celerylab.lessons.l02_workers.tasks"
RABBITMQ_URL = "amqp://guest:guest@127.0.0.1:5672//"
SHOP = [
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT)",
    "CREATE TABLE coupons (order_id INTEGER PRIMARY KEY, balance INTEGER)",
    "CREATE TABLE events (id TEXT PRIMARY KEY, order_id INTEGER)",
    "INSERT INTO orders (id, status) VALUES (1, 'pending'), (2, 'pending'), (3, 'pending')",
    "INSERT INTO coupons (order_id, balance) VALUES (1, 50), (2, 50), (3, 50)",
]


def lab_transport(visibility_timeout: float = 3, sweep: float | None = 0.5) -> dict:
    """Redis transport options for the lab: a short visibility timeout; a sweep every `sweep` s (None: kombu's)."""
    options = {"visibility_timeout": visibility_timeout}
    if sweep is not None:
        options.update(unacked_restore_interval=sweep, unacked_restore_throttle=1)
    return options


def kombu_defaults() -> dict:
    """The Redis transport's own defaults, read from the installed kombu."""
    return {"visibility_timeout": Channel.visibility_timeout,
            "unacked_restore_interval": Channel.unacked_restore_interval,
            "unacked_restore_throttle": Channel.unacked_restore_throttle}


def start(**options) -> Stack:
    """The page's broker (no workers): every experiment gets its own stack and key namespace on it."""
    options.setdefault("timeline", False)
    return Stack.start(APP, workers=[], **options)


def worker(queue: str, concurrency: int = 1, pool: str = "prefork", **settings) -> WorkerSpec:
    """A worker (prefork unless told) consuming one queue, with default prefetch and its own Celery settings."""
    env = settings.pop("env", {})
    return WorkerSpec(pool=pool, concurrency=concurrency, queues=(queue,), settings=settings, env=env)


def experiment(lab: Stack, *workers: WorkerSpec, **options) -> Stack:
    """A stack on the page's broker, in its own key namespace: nothing unacknowledged leaks between experiments."""
    options.setdefault("timeline", False)
    options.setdefault("broker_url", lab.broker.url)
    return Stack.start(APP, workers=list(workers), **options)


def experiments(lab: Stack, workers: dict[str, list[WorkerSpec]], **options) -> dict[str, Stack]:
    """Several experiments at once, ``{name: [WorkerSpec, ...]}``, their stacks started in parallel."""
    started = in_parallel({name: (lambda specs=specs: experiment(lab, *specs, **options))
                           for name, specs in workers.items()})
    return {name: stack for name, (_, stack) in started.items()}


def shop(stack: Stack, order_id: int) -> tuple:
    """(order status, coupon balance, events recorded) for one order of the stack's database."""
    connection = stack.db()
    try:
        return shop_in(connection, order_id)
    finally:
        connection.close()


def shop_in(connection, order_id: int) -> tuple:
    """(order status, coupon balance, events recorded) for one order, read through `connection`."""
    status = appdb.scalar(connection, "SELECT status FROM orders WHERE id = ?", (order_id,))
    balance = appdb.scalar(connection, "SELECT balance FROM coupons WHERE order_id = ?", (order_id,))
    events = appdb.scalar(connection, "SELECT COUNT(*) FROM events WHERE order_id = ?", (order_id,))
    return (status, balance, events)


def wait_for(condition, timeout: float, poll: float = 0.05) -> bool:
    """Poll `condition()` until it is true or `timeout` seconds pass; return its last value."""
    read_until(condition, timeout=timeout, step=poll)
    return bool(condition())  # one more look, once the wait is over


def restart_all(workers) -> None:
    """Start every (dead) worker again, in parallel; return when all are ready."""
    in_parallel({index: node.restart for index, node in enumerate(workers)})


def in_parallel(calls: dict) -> dict:
    """Run every call of ``{name: callable}`` at once; ``{name: (seconds it took, what it returned)}``."""
    def timed(call):
        begin = time.monotonic()
        value = call()
        return time.monotonic() - begin, value

    with ThreadPoolExecutor(max_workers=max(1, len(calls))) as pool:
        futures = {name: pool.submit(timed, call) for name, call in calls.items()}
        return {name: future.result() for name, future in futures.items()}


def returned(result, timeout: float = 10):
    """What `result.get()` returns, or the class name of what it raises (a claim observes it before asserting)."""
    try:
        return result.get(timeout=timeout)
    except Exception as error:  # noqa: BLE001 - observed, then asserted on
        return type(error).__name__


def seconds(value: float) -> str:
    """A duration as printed on the page: one decimal (a comma in Portuguese) and a unit."""
    return f"{localized.number(value, digits=1)} s"


def rabbitmq_reachable(url: str = RABBITMQ_URL) -> tuple[bool, str]:
    """(True, "") when a RabbitMQ answers at `url`, else (False, why)."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=2) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0)
    except Exception as error:  # any failure to connect is a reason to skip
        return False, f"{url}: {type(error).__name__}: {error}"
    return True, ""


def rabbitmq_ready(stack: Stack, queue: str) -> int:
    """Messages ready in a RabbitMQ queue (a passive declare: the queue is not created)."""
    with stack.app.connection_for_write() as connection:
        return connection.default_channel.queue_declare(queue, passive=True).message_count


def rabbitmq_delete(stack: Stack, queues) -> None:
    with stack.app.connection_for_write() as connection:
        for queue in queues:
            connection.default_channel.queue_delete(queue)


def rabbitmq_version(stack: Stack) -> str:
    """The RabbitMQ server's version, as it announces it when the AMQP connection opens."""
    with stack.app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1)
        version = connection.connection.server_properties.get("version", "?")
    return version.decode() if isinstance(version, bytes) else str(version)


def rabbitmq_consumer_timeout() -> str:
    """The broker's `consumer_timeout` in ms, read with ``rabbitmqctl eval`` (read-only), or why it could not be read."""
    command = shutil.which("rabbitmqctl")
    if command is None:
        return "rabbitmqctl: not found"
    try:
        out = subprocess.run([command, "eval", "application:get_env(rabbit, consumer_timeout)."],
                             capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"rabbitmqctl: {type(error).__name__}"
    found = re.search(r"\{ok,\s*(\d+)\}", out)
    return f"{found.group(1)} ms" if found else f"rabbitmqctl: {out.strip()[:80] or 'no answer'}"
