"""CL508: a result read from a task declared with ignore_result=True (and one read from a task that stores it)."""
from audit_apps.base import make_app

app = make_app("cl508")


@app.task(name="cl508.bulk", ignore_result=True)
def bulk(n: int) -> int:
    return n


@app.task(name="cl508.double")
def double(n: int) -> int:
    return 2 * n


def view(n: int) -> int:
    sent = bulk.delay(n)
    total = sent.get(timeout=10)
    return total + double.delay(n).get(timeout=10)
