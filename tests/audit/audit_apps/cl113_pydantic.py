"""CL113 silent: a pydantic model argument on a task with pydantic=True (Celery dumps and validates it)."""
from pydantic import BaseModel

from audit_apps.base import make_app

app = make_app("cl113p")


class Order(BaseModel):
    id: int


@app.task(name="cl113p.checked", pydantic=True)
def checked(order: Order) -> Order:
    return order


@app.task(name="cl113p.unchecked")
def unchecked(order: Order) -> int:
    return order.id
