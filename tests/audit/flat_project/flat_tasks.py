"""Tasks the app includes."""
from flat_app import app


@app.task(name="flat.listed")
def listed():
    return 1
