"""Switches the app to the pickle serializer (and adds pickle to accept_content) so the User object and the set go through unchanged, opening the worker to code execution by anyone who can publish. Violates: "3. the app stays JSON-only: `task_serializer` `"json"` and `accept_content` `["json"]`, read from the worker." Blind review.

Both routes answer 2xx and both results are right; the fix is the one the
lesson measures as worse than the bug.

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

app.conf.update(task_serializer="pickle", result_serializer="json", accept_content=["json", "pickle"])


@app.task(name="users.process")
def process_user(user):
    return {"id": user.id, "email": user.email}


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(payload["ids"])]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(load_user(user_id)).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": set(body.ids)}).id}
