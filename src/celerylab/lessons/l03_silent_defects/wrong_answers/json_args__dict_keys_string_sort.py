"""Deduplicates with a dict keyed by id; JSON turns the keys into strings, and the task sorts those strings, so ids sort as text ("10" before "9") — right only for the single-digit ids of the example. Violates: "`POST /notify` with `{"ids": [7, 3, 7]}` answers 2xx and `users.notify` returns the e-mail of **each distinct id exactly once**, in id order: `['caio@example.com', 'duda@example.com']` (and the same for other lists of ids, of one or two digits);" Blind review.

The learner hit KeyError '3' in the worker and added int() at the lookup,
not at the sort.

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
def process_user(user_id):
    user = load_user(user_id)
    return {"id": user.id, "email": user.email}


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@app.task(name="users.notify")
def notify(payload):
    return [load_user(int(user_id)).email for user_id in sorted(payload["ids"])]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": {user_id: True for user_id in body.ids}}).id}
