"""Tasks under decorators that wrap them (an atomic block, a functools.wraps helper): their findings point here."""
from audit_apps.base import make_app
from audit_apps.loc_wrapped_helpers import atomic, logged

app = make_app("locw")


@app.task(name="locw.saved", max_retries=None, bind=True)
@atomic()
def saved(self):
    raise self.retry(countdown=5)


@app.task(name="locw.logged", max_retries=None, bind=True)
@logged
def logged_task(self):
    raise self.retry(countdown=5)
