"""Right arguments, but results go back as pickle (result_serializer="pickle", result_accept_content json+pickle): task_serializer and accept_content still read "json"/["json"]. Violates: "the app stays JSON-only: [...] results in JSON too (`result_serializer` `"json"`)". Blind review."""
from fastapi import FastAPI
from pydantic import BaseModel

from celerylab.stack.appconfig import create_app

app = create_app("ex_routes")
app.conf.update(result_serializer="pickle", result_accept_content=["json", "pickle"])
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
    return [load_user(user_id).email for user_id in payload["ids"]]


@api.post("/users/{user_id}/process")
def process(user_id: int):
    return {"task_id": process_user.delay(user_id).id}


@api.post("/notify")
def notify_route(body: Notify):
    return {"task_id": notify.delay({"ids": sorted(set(body.ids))}).id}
