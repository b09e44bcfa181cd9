"""Sends a dict snapshot of the User (id and e-mail read at .delay()) instead of the id, so the task reports the e-mail as it was when queued, not the user's current one. Violates: "`POST /users/5/process` answers 2xx and `users.process` returns `{'id': 5, 'email': 'bia@example.com'}` (and the same for other users, with ids of one or two digits), with the user as they are when the task runs: the check also changes, in the worker, a user's e-mail (`load_user(7).email = ...`)" Blind review.

JSON-safe and right while nothing changes between .delay() and the run; the
lesson's point ("a sent object is a snapshot of the moment of .delay()") is
missed: send ids and load the current state inside the task.

Blind review.
"""
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


@app.task(name="users.process")
def process_user(user):
    return {"id": user["id"], "email": user["email"]}


@api.post("/users/{user_id}/process")
def process(user_id: int):
    user = load_user(user_id)
    return {"task_id": process_user.delay({"id": user.id, "email": user.email}).id}


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(set(payload["ids"]))]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}

