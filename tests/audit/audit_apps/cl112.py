"""CL112: a broker password as an environment fallback written in the source."""
import os

from audit_apps.base import make_app

app = make_app("cl112", broker_url=os.environ.get("BROKER_URL", "amqp://shop:Wq7-tr0ub4dor@rabbit:5672//"))


@app.task(name="cl112.work")
def work():
    return 1
