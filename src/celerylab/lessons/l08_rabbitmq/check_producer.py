"""The reminder check's producer: a process of its own (not a worker) that imports the learner's module, as the shop's
web process does, runs `l08.remind_later` in itself for the one `label countdown` line it reads, and ends right after
it returns (the check ends it, as a web request's process may end): nothing the call left in that process runs later."""
from __future__ import annotations

import contextlib
import importlib
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from celerylab.polling import until

READY = "ready"
BEGIN = "begin"  # the line the producer prints as it calls l08.remind_later: `begin label time`
RETURNED = "returned"  # the line it prints once l08.remind_later returned and its connections are closed
RETURN_TIMEOUT = 20.0  # seconds l08.remind_later may take to return (alone: a few milliseconds)
BEGIN_TIMEOUT = 10.0  # seconds a ready producer may take to read the request and say it begins
START_TIMEOUT = 60.0  # seconds the producer may take to import Celery and the learner's module (alone: about 1 s)


def main(module: str) -> None:
    importlib.import_module(module)  # the learner's configuration, as the web process gets it
    from celerylab.lessons.l08_rabbitmq.tasks import app, remind_later

    with app.producer_or_acquire() as producer:  # connected before the check counts: a countdown starts at the call
        producer.connection.ensure_connection(max_retries=10)
    print(READY, flush=True)
    request = sys.stdin.readline().split()
    if len(request) != 2:  # the check ended without a request
        return
    label, countdown = request
    print(f"{BEGIN} {label} {time.time():.3f}", flush=True)
    remind_later(label, int(countdown))  # run here, in this process: it publishes with this process's configuration
    with contextlib.suppress(Exception):  # closed as the process ends: what was published has reached the broker
        app.pool.force_close_all()
    print(RETURNED, flush=True)


def began(log_path: Path, label: str) -> float | None:
    """When the producer said it called l08.remind_later for `label` (None: not yet)."""
    for line in log_path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[:2] == [BEGIN, label]:
            return float(fields[2])
    return None


def returned(log_path: Path) -> bool:
    """Whether the producer said l08.remind_later returned."""
    return RETURNED in log_path.read_text().split()


def end(process: subprocess.Popen) -> None:
    """SIGKILL the producer (at once: a process ending after a request does not wait for the threads it started)."""
    if process.poll() is None:
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


@contextlib.contextmanager
def reminder_producer(stack, module: str = "ex_reminders", command: list[str] | None = None):
    """A producer process started on the stack's broker with the learner's module imported, ready before the check
    sends anything: `produce(label, countdown)` has it run `l08.remind_later(label, countdown)` at once (its import
    takes no time from the countdown), and SIGKILLs it as soon as the call returned: a thread or timer the call
    started in that process ends with it. Whatever it prints or raises goes to `producer.log` in the stack's folder."""
    log_path = Path(stack.workdir) / "producer.log"
    log = open(log_path, "a+", encoding="utf-8")  # noqa: SIM115 - closed below
    process = subprocess.Popen(command or [sys.executable, "-m", __name__, module], stdin=subprocess.PIPE, stdout=log,
                               stderr=subprocess.STDOUT, text=True, cwd=stack.workdir, env=stack.process_env())
    requests = process.stdin
    assert requests is not None  # stdin=PIPE
    try:
        until(lambda: READY in log_path.read_text() or process.poll() is not None,
              START_TIMEOUT, step=0.1)

        def produce(label: str, countdown: int, meanwhile: Callable[[], None] = lambda: None) -> float:
            """When the producer called l08.remind_later (the countdown starts no sooner; now if it never did). Once it
            called, `meanwhile()` runs in the check (what must not wait for the producer's end: sends timed against
            this countdown); then the producer is ended as soon as the call returned."""
            if process.poll() is not None:  # a producer that died at import sends nothing: the reminder never runs
                meanwhile()
                return time.time()
            requests.write(f"{label} {countdown}\n")
            requests.flush()
            called = until(lambda: began(log_path, label), BEGIN_TIMEOUT, step=0.02) or time.time()
            meanwhile()
            until(lambda: returned(log_path) or process.poll() is not None, RETURN_TIMEOUT, step=0.02)
            end(process)
            return called

        yield produce
    finally:
        with contextlib.suppress(OSError):
            requests.close()
        end(process)
        log.close()


if __name__ == "__main__":
    main(sys.argv[1])
