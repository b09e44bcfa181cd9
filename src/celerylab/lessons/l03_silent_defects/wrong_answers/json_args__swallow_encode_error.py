"""Catches EncodeError in the routes and answers 202 anyway, so the routes stop returning 500 but the object route still never queues its task. Violates: "`POST /users/5/process` answers 2xx and `users.process` returns `{'id': 5, 'email': 'bia@example.com'}` (and the same for other users);". Blind review.

Avoids the fault instead of fixing it: the notify route is fixed properly,
the user route hides the 500 behind a 202 with a task id nobody will ever run.

Blind review.
"""
import uuid

from fastapi import FastAPI
from kombu.exceptions import EncodeError
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
    return {"id": user.id, "email": user.email}


@api.post("/users/{user_id}/process", status_code=202)
def process(user_id: int):
    try:
        return {"task_id": process_user.delay(load_user(user_id)).id}
    except EncodeError:
        return {"task_id": str(uuid.uuid4())}  # queued "later"


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(set(payload["ids"]))]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}

