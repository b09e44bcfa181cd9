"""Lesson 04's incident: "so just never expire them" — and a result_expires below one second, which means the same."""
from audit_apps.base import make_app

app = make_app("l04", result_expires=None)


@app.task(name="l04.double")
def double(n: int) -> int:
    return 2 * n
