"""CL107 silent: a faster json codec registered as application/json, whose decoder only parses JSON."""
import json

from kombu.serialization import register

from audit_apps.base import make_app


def loads(text):
    return json.loads(text)


register("json", json.dumps, loads, content_type="application/json", content_encoding="utf-8")
app = make_app("cl107dok", accept_content=["json"])
