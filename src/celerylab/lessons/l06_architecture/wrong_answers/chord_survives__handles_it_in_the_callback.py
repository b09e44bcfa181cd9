"""Leaves the member raising and makes the callback skip errors: the backend never calls the callback, the chord fails. Violates: "with one or more corrupt chunks, the chord finishes with SUCCESS"."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    validate_rows(rows)
    return {"index": index, "imported": len(rows)}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    results = [r for r in results if isinstance(r, dict)]
    return {"imported": sum(r["imported"] for r in results if "imported" in r),
            "failed": sorted(r["index"] for r in results if "error" in r)}
