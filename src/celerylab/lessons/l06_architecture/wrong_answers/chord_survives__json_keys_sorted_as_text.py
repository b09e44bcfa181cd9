"""Returns each chunk's outcome as a dict keyed by its index, whose keys come back from JSON as strings, and sorts the failed ones as text, so index 10 comes before 2. Violates: "its result is `{"imported": N, "failed": [indices]}`: `N` is the number of rows of the valid chunks, and `failed` lists the corrupt chunks' `index` values in ascending order — the number each chunk was sent with, which is not its position in the chord;". Blind review.

With single-digit indices (the usual examples) text order and numeric order agree.
"""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return {index: None}       # corrupt
    return {index: len(rows)}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    merged = {}
    for part in results:
        merged.update(part)        # keys arrive as "3", "12", ... after the JSON round trip
    failed = [int(key) for key in sorted(k for k, v in merged.items() if v is None)]
    return {"imported": sum(v for v in merged.values() if v is not None), "failed": failed}
