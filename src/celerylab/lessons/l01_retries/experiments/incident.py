"""The incident: the welcome task, with autoretry_for=(TimeoutError,), against a provider that answers late."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers, tasks
from celerylab.stack import Stack


@dataclass
class Delivered:
    deliveries: int  # e-mails the provider accepted and sent
    requests: int    # calls the provider received
    state: str


def incident(stack: Stack, delay: float = 0.6) -> Delivered:
    provider = helpers.email(stack)
    provider.reset()
    provider.fault("slow_ack", delay=delay)  # accepts, and answers after the client's 0.3 s timeout
    sent = tasks.welcome.delay(1)
    sent.get(timeout=30, propagate=False)
    stats = provider.stats()
    return Delivered(stats["deliveries"], stats["requests"], sent.state)
