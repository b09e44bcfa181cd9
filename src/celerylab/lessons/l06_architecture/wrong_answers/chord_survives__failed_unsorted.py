"""Lists the failed indices in the chord's member order instead of ascending order. Violates: "its result is `{"imported": N, "failed": [indices]}`: `N` is the number of rows of the valid chunks, and `failed` lists the corrupt chunks' `index` values in ascending order — the number each chunk was sent with, which is not its position in the chord;". Blind review.

The group hands results back in member order, so with chunks sent in ascending index order (or a
single corrupt chunk) the list happens to be sorted.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return {"index": index, "imported": 0, "ok": False}
    return {"index": index, "imported": len(rows), "ok": True}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    return {"imported": sum(r["imported"] for r in results),
            "failed": [r["index"] for r in results if not r["ok"]]}
