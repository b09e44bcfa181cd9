"""A tiny FastAPI producer for the stack tests: each request enqueues a task with .delay() and returns its id."""
from __future__ import annotations

from fastapi import FastAPI

from celerylab.stack.smoke import add, whoami

api = FastAPI()


@api.post("/add")
def enqueue_add(x: int, y: int) -> dict:
    return {"task_id": add.delay(x, y).id}


@api.post("/whoami")
def enqueue_whoami() -> dict:
    return {"task_id": whoami.delay().id}
