"""Drops, in the API, the ids the API process does not know: a user only the worker has is left out of the e-mails. Violates: "returns the e-mail of **each distinct id exactly once**, in id order [...] also with the users as they are when the task runs". Blind review."""
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
def notify(ids):
    return [load_user(user_id).email for user_id in sorted(set(ids))]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay(sorted({user_id for user_id in body.ids if user_id in USERS})).id}
