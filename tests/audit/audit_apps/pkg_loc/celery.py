"""The app of pkg_loc, made here with no time limits: app-wide findings point at the line that creates it."""
from celery import Celery

app = Celery(
    "pkg_loc",
    set_as_current=False,
    broker="redis://localhost:6379/0",
)


@app.task(name="pkg_loc.work")
def work():
    return 1
