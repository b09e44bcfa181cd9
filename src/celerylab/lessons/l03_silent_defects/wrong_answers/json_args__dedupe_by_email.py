"""Removes duplicates from the e-mails instead of the ids (dict.fromkeys over the addresses, in id order): with the check's users, one address each, the answer is the same, but two distinct ids that share an address (a shared mailbox, a family account) yield that address once instead of once per id. Violates: "`users.notify` returns the e-mail of **each distinct id exactly once**". Blind review."""
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
    emails = [load_user(user_id).email for user_id in sorted(payload["ids"])]
    return list(dict.fromkeys(emails))  # each address once, first-seen order


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": body.ids}).id}
