"""Answers 400 to {"ids": []} instead of 2xx with a task that returns []. Violates: "(and the same for other lists of ids of one or two digits, short or long, and for the empty list)". Blind review."""
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

from fastapi import HTTPException


@api.post("/notify")
def notify_route(body: Notify):
    if not body.ids:
        raise HTTPException(status_code=400, detail="no ids")
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}
