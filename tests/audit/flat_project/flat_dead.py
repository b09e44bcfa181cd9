"""A task module nothing imports and no code names: a dead task, undecided (no send of it can be seen)."""
from flat_app import app


@app.task(name="flat.dead")
def dead():
    return 1
