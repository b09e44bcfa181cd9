"""Sends ids (right) but caches each user's e-mail per pool process with functools.lru_cache: once a process has looked a user up, a later change of that user's e-mail is never seen by it, so the task returns the old address; the check's change is seen whenever that process had not looked user 7 up before. Violates: "with the user as they are when the task runs". Blind review."""
import functools

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


@functools.lru_cache(maxsize=None)
def email_of(user_id: int) -> str:
    return load_user(user_id).email


@app.task(name="users.process")
def process_user(user_id):
    return {"id": user_id, "email": email_of(user_id)}


@app.task(name="users.notify")
def notify(payload):
    return [email_of(user_id) for user_id in sorted(set(payload["ids"]))]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": body.ids}).id}
