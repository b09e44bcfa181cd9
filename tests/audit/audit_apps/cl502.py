"""CL502: a result read with no result backend."""
from audit_apps.base import make_app

app = make_app("cl502", drop=("result_backend",))


@app.task(name="cl502.double")
def double(n: int) -> int:
    return 2 * n


def view(n: int) -> int:
    pending = double.delay(n)
    return pending.get(timeout=10)
