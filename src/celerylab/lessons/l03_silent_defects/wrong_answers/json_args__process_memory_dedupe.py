"""Dedupes with a module-level set in the worker: an id notified once is skipped in every later request served by that process. Violates: "returns the e-mail of **each distinct id exactly once**, in id order" Blind review.
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


NOTIFIED: set = set()


@app.task(name="users.notify")
def notify(payload):
    emails = []
    for user_id in sorted(payload["ids"]):
        if user_id in NOTIFIED:
            continue
        NOTIFIED.add(user_id)
        emails.append(load_user(user_id).email)
    return emails


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": list(body.ids)}).id}
