"""Fixes users.process (it sends the id) but has the /notify route resolve the e-mails itself, from the API process's memory, and send the finished list: the task returns a snapshot taken at .delay() in another process, so an e-mail changed in the worker (or between sending and running) is not what notify returns; the check only changes an e-mail for users.process. Violates: "with the user as they are when the task runs". Blind review."""
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
    return payload["emails"]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    emails = [load_user(user_id).email for user_id in sorted(set(body.ids))]  # plain strings: JSON is happy
    return {"task_id": notify.delay({"emails": emails}).id}
