"""Keeps the request's ids in a module-level dict of the API process between computing and sending them, with a log call in between: two requests at once can swap ids. Violates: "and also when two requests arrive at the same time: each gets its own ids". Blind review."""
import logging

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


log = logging.getLogger(__name__)
CURRENT = {"ids": []}


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
def notify(ids):
    return [load_user(user_id).email for user_id in sorted(set(ids))]


@api.post("/notify")
def notify_route(body: Notify):
    CURRENT["ids"] = sorted(set(body.ids))
    log.info("notify: %d distinct ids", len(CURRENT["ids"]))
    return {"task_id": notify.delay(CURRENT["ids"]).id}
