"""CL108/CL119 on a library's task (registered by the library, pickle, never sent by the project): undecided; the
project's own pickle task beside it stays a finding."""
import audit_apps.libraries  # noqa: F401 - the stand-in libraries' folder on the path
import fakethumbs
from audit_apps.base import make_app

app = make_app("cl108lib")
fakethumbs.register(app)


@app.task(name="cl108lib.own", serializer="pickle")
def own():
    return 1
