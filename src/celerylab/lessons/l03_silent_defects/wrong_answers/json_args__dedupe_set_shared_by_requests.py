"""Deduplicates the ids in the API with one module-level set that every request clears and fills: two /notify requests served at the same time clear each other's ids, and one of them sends an id twice. Violates: "and also when two requests arrive at the same time: each gets its own ids". Blind review."""
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


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(payload["ids"])]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}

_seen: set[int] = set()


@api.post("/notify")
def notify_route(body: Notify):
    _seen.clear()
    ids = []
    for user_id in body.ids:
        if user_id not in _seen:
            _seen.add(user_id)
            ids.append(user_id)
    return {"task_id": notify.delay({"ids": ids}).id}
