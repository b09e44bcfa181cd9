"""The course notes' fix (a key checked and remembered in our database) under the same fault as the incident."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers, tasks
from celerylab.stack import Stack


@dataclass
class Delivered:
    deliveries: int  # e-mails the provider accepted and sent
    requests: int    # calls the provider received
    state: str


def notes_fix(stack: Stack, delay: float = 0.6, event_id: str = "welcome-user1-signup") -> Delivered:
    provider = helpers.email(stack)
    provider.reset()
    provider.fault("slow_ack", delay=delay)  # the incident's fault: accepted, answered after the timeout
    sent = tasks.welcome_checked.delay(1, event_id)
    sent.get(timeout=30, propagate=False)
    stats = provider.stats()
    return Delivered(stats["deliveries"], stats["requests"], sent.state)
