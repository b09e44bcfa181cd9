"""Deduplicates with list(set(ids)) and drops the task's sorted(), relying on set iteration order, which is id order only for the small ids of the example (3, 5, 7) and not for ids like [9, 2]. Violates: "`POST /notify` with `{"ids": [7, 3, 7]}` answers 2xx and `users.notify` returns the e-mail of **each distinct id exactly once**, in id order: `['caio@example.com', 'duda@example.com']` (and the same for other lists of ids, of one or two digits);" Blind review.

For [7, 3, 7], set() yields 3 then 7 (small ints hash to themselves), so the
example comes back sorted by accident.

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
    return [load_user(user_id).email for user_id in payload["ids"]]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": list(set(body.ids))}).id}
