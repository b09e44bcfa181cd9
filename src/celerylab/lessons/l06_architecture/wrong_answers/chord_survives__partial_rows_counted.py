"""Imports the valid rows of a corrupt chunk (drops only the negative ids) and adds them to `imported`, so N counts rows of chunks that are reported as failed. Violates: "`N` is the number of rows of the valid chunks". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        salvaged = [row for row in rows if row >= 0]  # save what can be saved
        return {"index": index, "imported": len(salvaged), "ok": False}
    return {"index": index, "imported": len(rows), "ok": True}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    return {"imported": sum(result["imported"] for result in results),
            "failed": sorted(result["index"] for result in results if not result["ok"])}
