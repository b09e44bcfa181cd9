"""Pushes each corrupt chunk's index onto one Redis list shared by every chord, which the callback reads and deletes: it works one chord at a time only. Violates: "At grading, it sends two chords at once, and the callback's worker starts only after every chunk has finished.". Blind review.

Passes while one chord runs at a time; with two at once, one callback reports the other chord's failures too.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows

KEY = "ex:failed-chunks"


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        app.backend.client.rpush(KEY, index)
        return 0
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    client = app.backend.client
    failed = sorted(int(index) for index in client.lrange(KEY, 0, -1))
    client.delete(KEY)
    return {"imported": sum(results), "failed": failed}
