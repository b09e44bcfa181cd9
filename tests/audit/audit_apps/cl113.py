"""CL113: arguments and a return value typed with what JSON cannot carry."""
from dataclasses import dataclass
from datetime import datetime

from audit_apps.base import make_app

app = make_app("cl113")


@dataclass
class Point:
    x: int
    y: int


@app.task(name="cl113.move")
def move(point: Point, tags: set, pair: tuple, when: datetime, count: int, label: str | None = None):
    return 1


@app.task(name="cl113.tags")
def tags(user_id: int) -> set:
    """Runs to the end; storing the set fails (EncodeError) and the state says FAILURE."""
    return {user_id}
