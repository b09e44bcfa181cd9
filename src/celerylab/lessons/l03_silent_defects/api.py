"""Lesson 03's web producer: a FastAPI route that hands a Python object to .delay(), and one that sends an id."""
from __future__ import annotations

from fastapi import FastAPI

from celerylab.lessons.l03_silent_defects.tasks import describe


class User:
    def __init__(self, id: int, email: str):
        self.id, self.email = id, email


USERS = {5: User(5, "bia@example.com")}
api = FastAPI()


@api.post("/users/{user_id}/describe-object")
def describe_object(user_id: int) -> dict:
    return {"task_id": describe.delay(USERS[user_id]).id}


@api.post("/users/{user_id}/describe-id")
def describe_id(user_id: int) -> dict:
    return {"task_id": describe.delay(user_id).id}
