"""CL302: retries with max_retries=None, automatic and by hand (retry_kwargs caps the third)."""
from audit_apps.base import make_app

app = make_app("cl302")


@app.task(name="cl302.auto", autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=None)
def auto():
    return 1


@app.task(name="cl302.by_hand", bind=True, max_retries=None)
def by_hand(self):
    try:
        raise ConnectionError("down")
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=5)


@app.task(name="cl302.kwargs", autoretry_for=(ConnectionError,), retry_backoff=True, retry_kwargs={"max_retries": 4},
          max_retries=None)
def kwargs():
    return 1


@app.task(name="cl302.capped_in_body", bind=True, max_retries=None)
def capped_in_body(self):
    """The ceiling passed to self.retry() wins over the task's max_retries=None: bounded."""
    try:
        raise ConnectionError("down")
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=5, max_retries=5)


@app.task(name="cl302.unbounded_in_body", bind=True, max_retries=None)
def unbounded_in_body(self):
    """One call caps, the other passes None: unbounded."""
    try:
        raise ConnectionError("down")
    except ConnectionError as exc:
        if exc.args:
            raise self.retry(exc=exc, max_retries=5)
        raise self.retry(exc=exc, max_retries=None)
