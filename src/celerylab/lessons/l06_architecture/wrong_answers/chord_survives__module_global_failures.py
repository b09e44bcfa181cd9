"""Collects the failed indices in a module-level list inside the worker process, which the callback (another process, or the same one after earlier chords) reads instead of the chunks' results. Violates: "its result is `{"imported": N, "failed": [indices]}`: `N` is the number of rows of the valid chunks, and `failed` lists the corrupt chunks' `index` values in ascending order — the number each chunk was sent with, which is not its position in the chord;". Blind review.

Passes on a single-process worker running one chord, where the list is shared and clean; with
prefork children, several workers or a second chord it is empty or carries stale indices.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows

_FAILED: list[int] = []  # corrupt chunks seen by this process


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        _FAILED.append(index)
        return 0
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    failed = sorted(set(_FAILED))
    _FAILED.clear()
    return {"imported": sum(results), "failed": failed}
