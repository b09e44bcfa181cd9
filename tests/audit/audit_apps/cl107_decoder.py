"""CL107 behind a name: a codec registered as application/json whose decoder unpickles (as jsonpickle does)."""
import base64
import json
import pickle

from kombu.serialization import register

from audit_apps.base import make_app


def dumps(value):
    return base64.b64encode(pickle.dumps(value)).decode()


def loads(text):
    return pickle.loads(base64.b64decode(text))


register("json", dumps, loads, content_type="application/json", content_encoding="utf-8")
app = make_app("cl107d", accept_content=["json"])
