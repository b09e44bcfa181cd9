"""Replaces kombu's "json" serializer with one that smuggles anything JSON cannot carry as base64 pickle inside a JSON document (here: the set of ids): the settings still read "json"/["json"], but the worker unpickles what the broker hands it. Violates: "the app stays JSON-only: [...] and the serializer called `"json"`, in the worker and in the API's process, is kombu's own, unchanged: no serializer registered in its place (nor another one taking over `application/json`)". Blind review."""
import base64
import pickle

from fastapi import FastAPI
from kombu.serialization import register
from kombu.utils import json as kjson
from pydantic import BaseModel

from celerylab.stack.appconfig import create_app


def _dumps(obj):
    try:
        return kjson.dumps(obj)
    except Exception:
        return kjson.dumps({"__pickle__": base64.b64encode(pickle.dumps(obj)).decode()})


def _loads(text):
    value = kjson.loads(text)
    if isinstance(value, dict) and set(value) == {"__pickle__"}:
        return pickle.loads(base64.b64decode(value["__pickle__"]))
    return value


register("json", _dumps, _loads, content_type="application/json", content_encoding="utf-8")

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
    fresh = load_user(user_id)
    return {"id": fresh.id, "email": fresh.email}


@app.task(name="users.notify")
def notify(payload):
    return [load_user(user_id).email for user_id in sorted(payload["ids"])]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": set(body.ids)}).id}
