"""Registers User with kombu's JSON type registry so the object travels (as a snapshot) instead of sending the id, so the task works on the user as it was at .delay(), and the module that defines the type must be imported identically by every producer and worker. Violates: "`POST /users/5/process` answers 2xx and `users.process` returns `{'id': 5, 'email': 'bia@example.com'}` (and the same for other users, with ids of one or two digits), with the user as they are when the task runs: the check also changes, in the worker, a user's e-mail (`load_user(7).email = ...`)" Blind review.

Passes on the happy path; stale if the user's e-mail changes before the task
runs, and a producer without this registration gets EncodeError again.

Blind review.
"""
from kombu.utils.json import register_type

from fastapi import FastAPI
from pydantic import BaseModel

from celerylab.stack.appconfig import create_app

app = create_app("ex_routes")
api = FastAPI()


class User:
    def __init__(self, id, email):
        self.id, self.email = id, email


USERS = {5: User(5, "bia@example.com"), 3: User(3, "caio@example.com"), 7: User(7, "duda@example.com"),
         10: User(10, "edu@example.com")}


def load_user(user_id):
    return USERS[user_id]


class Notify(BaseModel):
    ids: list[int]


register_type(User, "ex_routes.User", lambda user: {"id": user.id, "email": user.email},
              lambda data: User(data["id"], data["email"]))


@app.task(name="users.process")
def process_user(user):
    return {"id": user.id, "email": user.email}


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(load_user(user_id)).id}


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(set(payload["ids"]))]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}

