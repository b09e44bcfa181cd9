"""Answers 404 in the API for a user the API process does not know, before sending the id: a user only the worker has is refused. Violates: "`POST /users/5/process` answers 2xx and `users.process` returns `{'id': 5, 'email': 'bia@example.com'}` (and the same for other users, with ids of one or two digits), with the user as they are when the task runs: the check also [...] adds users only the worker has (`USERS[id] = User(id, email)`), and the task must return [...] the added users' e-mails too". Blind review."""
from fastapi import FastAPI, HTTPException
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
    if user_id not in USERS:
        raise HTTPException(404, "no such user")
    return {"task_id": process_user.delay(user_id).id}


@app.task(name="users.notify")
def notify(ids):
    return [load_user(user_id).email for user_id in sorted(set(ids))]


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay(sorted(set(body.ids))).id}
