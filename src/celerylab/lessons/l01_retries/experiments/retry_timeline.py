"""Tasks with and without jitter against a provider that is down: when each attempt started, what Celery waited."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack


@dataclass
class RetryTimeline:
    tasks: dict[str, list[dict]]  # "flaky" / "flaky_jitter" -> each task: attempts, countdowns, state, error


def retry_timeline(stack: Stack, per_kind: int = 4, timeout: float = 30) -> RetryTimeline:
    provider = helpers.email(stack)
    provider.reset()
    provider.fault("unavailable", times=1000)  # 503 to every call: every attempt fails
    # l01.flaky: autoretry_for=(ConnectionError,), retry_backoff=1, retry_jitter=False, max_retries=3
    # l01.flaky_jitter: the same with retry_jitter=True
    sent = {kind: [stack.app.send_task(f"l01.{kind}", (i,)) for i in range(per_kind)]
            for kind in ("flaky", "flaky_jitter")}
    for results in sent.values():
        for result in results:
            result.get(timeout=timeout, propagate=False)
            helpers.settled(stack, result.id)  # the timeline holds its last event
    provider.reset()
    return RetryTimeline({kind: [helpers.attempt_record(stack, result) for result in results]
                          for kind, results in sent.items()})
