"""Tasks nobody imports: not in include, not imported by any included module."""
from flat_app import app


@app.task(name="flat.forgotten")
def forgotten():
    return 1
