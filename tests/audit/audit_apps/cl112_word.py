"""CL112, clean: the broker's password comes from the environment (AUDIT_CL112_WORD_BROKER) and is only a word of
this module's text, as doccano's RabbitMQ password "doccano" is of its settings (in a comment's link): shopfront."""
import os

from audit_apps.base import CLEAN, make_app

app = make_app("cl112w", broker_url=os.environ.get("AUDIT_CL112_WORD_BROKER", CLEAN["broker_url"]))


@app.task(name="cl112w.work")
def work():
    return 1
