"""CL503: no result backend while a task stores its result."""
from audit_apps.base import make_app

app = make_app("cl503", drop=("result_backend",))


@app.task(name="cl503.double")
def double(n: int) -> int:
    return 2 * n


@app.task(name="cl503.fire", ignore_result=True)
def fire():
    return None
