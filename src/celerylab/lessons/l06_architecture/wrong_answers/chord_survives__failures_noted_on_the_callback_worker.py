"""Has each corrupt chunk send a note to the callback's queue, kept in the memory of the process that runs the callback, which reads and clears it: the result depends on that process having seen only this chord's notes. Violates: "At grading, it sends two chords at once, and the callback's worker starts only after every chunk has finished.". Blind review.

Passes while one chord runs at a time; with two chords whose chunks all finished before the callback's worker
starts, the first callback takes both chords' failures and the second none.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows

_FAILED: list[int] = []  # notes received by this process


@app.task(name="ex.note_failure")
def note_failure(index: int) -> None:
    _FAILED.append(index)


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        note_failure.apply_async((index,), queue="consolidate")  # where the callback runs
        return 0
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    failed = sorted(_FAILED)
    _FAILED.clear()
    return {"imported": sum(results), "failed": failed}
