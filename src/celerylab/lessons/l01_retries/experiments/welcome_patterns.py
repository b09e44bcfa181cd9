"""Each welcome variant under each fault of the provider: how many e-mails the customer gets."""
import uuid
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack

PATTERNS = ("l01.welcome", "l01.welcome_checked", "l01.welcome_at_most_once")


@dataclass
class Patterns:
    rows: list[dict]  # one per task: {"task": name, fault: e-mails delivered, ...}


def welcome_patterns(stack: Stack, tasks: tuple[str, ...] = PATTERNS) -> Patterns:
    provider = helpers.email(stack)
    rows = []
    for task in tasks:
        row: dict = {"task": task}
        for fault in ("healthy", "slow_ack", "slow_reject"):
            provider.reset()
            if fault != "healthy":  # slow_ack: sends, then answers after the client's 0.3 s timeout;
                provider.fault(fault, delay=0.6)  # slow_reject: answers after the timeout and sends nothing
            # the incident's task takes the user; the others also take the event's key
            args = (1,) if task == "l01.welcome" else (1, f"welcome-1-{uuid.uuid4().hex[:8]}")
            stack.app.send_task(task, args).get(timeout=30, propagate=False)
            row[fault] = provider.stats()["deliveries"]
        rows.append(row)
    return Patterns(rows)
