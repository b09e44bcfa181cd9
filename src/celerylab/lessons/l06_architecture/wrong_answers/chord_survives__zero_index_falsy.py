"""Marks a failed chunk by returning its index and tests it with `if result.get("failed")`, so a corrupt chunk sent with index 0 is counted as a success with 0 rows and never listed in `failed` (the statement's `i` is any integer from 0 up). Violates: "`failed` lists the corrupt chunks' `index` values in ascending order". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return {"imported": 0, "failed": index}
    return {"imported": len(rows), "failed": None}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    imported = sum(result["imported"] for result in results)
    failed = sorted(result["failed"] for result in results if result.get("failed"))
    return {"imported": imported, "failed": failed}
