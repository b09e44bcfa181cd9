"""The reminder check's producer: a process of its own (not a worker) that imports the learner's module, as the shop's
web process does, then runs `l08.remind_later` in itself for every `label countdown` line it reads."""
from __future__ import annotations

import contextlib
import importlib
import subprocess
import sys
import time
from pathlib import Path

from celerylab.polling import until

READY = "ready"
BEGIN = "begin"  # the line the producer prints as it calls l08.remind_later: `begin label time`
BEGIN_TIMEOUT = 10.0  # seconds a ready producer may take to read the request and say it begins
START_TIMEOUT = 60.0  # seconds the producer may take to import Celery and the learner's module (alone: about 1 s)


def main(module: str) -> None:
    importlib.import_module(module)  # the learner's configuration, as the web process gets it
    from celerylab.lessons.l08_rabbitmq.tasks import app, remind_later

    with app.producer_or_acquire() as producer:  # connected before the check counts: a countdown starts at the call
        producer.connection.ensure_connection(max_retries=10)
    print(READY, flush=True)
    for line in sys.stdin:
        label, countdown = line.split()
        print(f"{BEGIN} {label} {time.time():.3f}", flush=True)
        remind_later(label, int(countdown))  # run here, in this process: it publishes with this process's configuration


def began(log_path: Path, label: str) -> float | None:
    """When the producer said it called l08.remind_later for `label` (None: not yet)."""
    for line in log_path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[:2] == [BEGIN, label]:
            return float(fields[2])
    return None


@contextlib.contextmanager
def reminder_producer(stack, module: str = "ex_reminders"):
    """A producer process started on the stack's broker with the learner's module imported, ready before the check
    sends anything: `produce(label, countdown)` has it run `l08.remind_later(label, countdown)` at once (its import
    takes no time from the countdown). Whatever it prints or raises goes to `producer.log` in the stack's folder."""
    log_path = Path(stack.workdir) / "producer.log"
    log = open(log_path, "a+", encoding="utf-8")  # noqa: SIM115 - closed below
    process = subprocess.Popen([sys.executable, "-m", __name__, module], stdin=subprocess.PIPE, stdout=log,
                               stderr=subprocess.STDOUT, text=True, cwd=stack.workdir, env=stack.process_env())
    requests = process.stdin
    assert requests is not None  # stdin=PIPE
    try:
        until(lambda: READY in log_path.read_text() or process.poll() is not None,
              START_TIMEOUT, step=0.1)

        def produce(label: str, countdown: int) -> float:
            """When the producer called l08.remind_later (the countdown starts no sooner); now if it never did."""
            if process.poll() is None:  # a producer that died at import sends nothing: the reminder never runs
                requests.write(f"{label} {countdown}\n")
                requests.flush()
                return until(lambda: began(log_path, label), BEGIN_TIMEOUT, step=0.02) or time.time()
            return time.time()

        yield produce
    finally:
        with contextlib.suppress(OSError):
            requests.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


if __name__ == "__main__":
    main(sys.argv[1])
