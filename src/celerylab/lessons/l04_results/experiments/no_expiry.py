"""Results that never expire: 50 keys with no TTL, what forget() and ignore_result do, whether Beat cleans up."""
from dataclasses import dataclass

from celery.beat import Scheduler

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class NoExpiry:
    after_50_tasks: tuple[int, list[int]]   # (keys still there, the distinct TTLs they carry)
    after_one_forget: tuple[int, list[int]]
    ignore_result_10_tasks: tuple[int, list[int]]
    size: dict                              # server, name_bytes, value_bytes, memory_usage (median of the 50)
    supports_autoexpire: bool
    beat_installs_backend_cleanup: bool


def no_expiry(stack: Stack) -> NoExpiry:
    forever = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("forever",),
                                          settings={"result_expires": None}))
    results = [stack.app.send_task("l04.double", (n,), queue="forever") for n in range(50)]
    for result in results:
        result.get(timeout=10)
    after_50 = helpers.result_keys(stack, [r.id for r in results])
    size = helpers.result_key_size(stack, [r.id for r in results])
    results[0].forget()
    after_forget = helpers.result_keys(stack, [r.id for r in results])

    since = forever.log_offset()
    ignored = [stack.app.send_task("l04.double", (n,), queue="forever", ignore_result=True) for n in range(10)]
    helpers.wait_succeeded(forever, [r.id for r in ignored], since)
    ignored_keys = helpers.result_keys(stack, [r.id for r in ignored])

    scheduler = Scheduler(stack.app, lazy=True)
    scheduler.install_default_entries({})  # what Beat does at start-up
    return NoExpiry(after_50, after_forget, ignored_keys, size, stack.app.backend.supports_autoexpire,
                    "celery.backend_cleanup" in scheduler.schedule)
