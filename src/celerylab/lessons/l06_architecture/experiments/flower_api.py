"""Flower's API behind its two main views: the Workers view and the Tasks view (the welcome e-mails)."""
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers
from celerylab.stack import Stack


@dataclass
class FlowerApi:
    workers: list[dict]  # per worker: its queues and concurrency (the ones that answered with their queues)
    tasks: list[dict]    # per email.send_welcome task Flower saw: its state and worker, in the order received


def flower_api(stack: Stack) -> FlowerApi:
    flower = helpers.flower(stack)
    workers = flower.get("/api/workers", params={"refresh": "true"}).json()  # refresh: Flower asks the workers now
    recent = flower.get("/api/tasks", params={"taskname": "email.send_welcome"}).json()
    return FlowerApi([{"worker": name, "queues": ",".join(q["name"] for q in info["active_queues"]),
                       "concurrency": info["stats"]["pool"]["max-concurrency"]}
                      for name, info in sorted(workers.items()) if info.get("active_queues")],
                     [{"task": info["name"], "state": info["state"], "worker": info["worker"]}
                      for info in sorted(recent.values(), key=lambda info: info["received"])])
