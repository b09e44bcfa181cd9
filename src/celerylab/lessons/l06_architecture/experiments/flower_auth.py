"""Flower with FLOWER_BASIC_AUTH: each page and API path asked without the password and with it."""
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers
from celerylab.stack import Stack

PATHS = ("/", "/tasks", "/api/workers", "/api/tasks", "/metrics", "/healthcheck")


@dataclass
class FlowerAuth:
    statuses: dict[str, tuple[int, int]]  # path -> (HTTP status without auth, with auth)
    metrics_has_events_total: bool        # the anonymous /metrics answer holds flower_events_total


def flower_auth(stack: Stack, paths=PATHS) -> FlowerAuth:
    flower = helpers.flower(stack)                 # with user and password
    anonymous = helpers.flower(stack, auth=False)  # without
    statuses = {path: (anonymous.get(path).status_code, flower.get(path).status_code) for path in paths}
    return FlowerAuth(statuses, "flower_events_total" in anonymous.get("/metrics").text)
