"""Encodes a corrupt chunk as -index in the member's result, so a corrupt chunk sent with index 0 returns 0 and is counted as a valid empty chunk. Violates: "its result is `{"imported": N, "failed": [indices]}`: `N` is the number of rows of the valid chunks, and `failed` lists the corrupt chunks' `index` values in ascending order — the number each chunk was sent with, which is not its position in the chord;". Blind review.

An int result keeps the chord light; it is right for every corrupt index except 0.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return -index  # negative result = corrupt chunk number `index`
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    failed = sorted(-r for r in results if r < 0)
    return {"imported": sum(r for r in results if r > 0), "failed": failed}
