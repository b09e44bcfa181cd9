"""Load error: a syntax error in the user's module."""
from celery import Celery

app = Celery("s"
x = 1
