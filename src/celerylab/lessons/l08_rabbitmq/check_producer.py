"""The reminder check's producer: a process of its own (not a worker) that imports the learner's module, as the shop's
web process does, then runs `l08.remind_later` in itself for every `label countdown` line it reads."""
from __future__ import annotations

import contextlib
import importlib
import subprocess
import sys

from celerylab.polling import until

READY = "ready"
START_TIMEOUT = 60.0  # seconds the producer may take to import Celery and the learner's module (alone: about 1 s)


def main(module: str) -> None:
    importlib.import_module(module)  # the learner's configuration, as the web process gets it
    from celerylab.lessons.l08_rabbitmq.tasks import remind_later

    print(READY, flush=True)
    for line in sys.stdin:
        label, countdown = line.split()
        remind_later(label, int(countdown))  # run here, in this process: it publishes with this process's configuration


@contextlib.contextmanager
def reminder_producer(stack, module: str = "ex_reminders"):
    """A producer process started on the stack's broker with the learner's module imported, ready before the check
    sends anything: `produce(label, countdown)` has it run `l08.remind_later(label, countdown)` at once (its import
    takes no time from the countdown). Whatever it prints or raises goes to `producer.log` in the stack's folder."""
    log = open(stack.workdir / "producer.log", "a+", encoding="utf-8")  # noqa: SIM115 - closed below
    process = subprocess.Popen([sys.executable, "-m", __name__, module], stdin=subprocess.PIPE, stdout=log,
                               stderr=subprocess.STDOUT, text=True, cwd=stack.workdir, env=stack.process_env())
    try:
        until(lambda: READY in (stack.workdir / "producer.log").read_text() or process.poll() is not None,
              START_TIMEOUT, step=0.1)

        def produce(label: str, countdown: int) -> None:
            if process.poll() is None:  # a producer that died at import sends nothing: the reminder never runs
                process.stdin.write(f"{label} {countdown}\n")
                process.stdin.flush()

        yield produce
    finally:
        with contextlib.suppress(OSError):
            process.stdin.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


if __name__ == "__main__":
    main(sys.argv[1])
