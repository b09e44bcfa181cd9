"""Right routes and tasks, but the API registers, when it starts, a "json" serializer that falls back to base64 pickle inside a JSON document for whatever JSON cannot carry: the worker is kombu's own, the settings read "json"/["json"], and any route that hands a task a Python object publishes pickle under application/json. Violates: "the app stays JSON-only: [...] and the serializer called `"json"`, in the worker and in the API's process, is kombu's own, unchanged: no serializer registered in its place"."""
import base64
import pickle
from contextlib import asynccontextmanager

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


@asynccontextmanager
async def lifespan(_):
    register("json", _dumps, kjson.loads, content_type="application/json", content_encoding="utf-8")
    yield


app = create_app("ex_routes")
api = FastAPI(lifespan=lifespan)


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
    return [load_user(user_id).email for user_id in sorted(set(payload["ids"]))]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}
