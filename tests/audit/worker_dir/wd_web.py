"""The web side: it sends the forgotten task by name, which a worker started here never registers."""
from celery import current_app


def signup():
    return current_app.send_task("wd.forgotten")
