"""Lists the corrupt chunks' indices in the order the chord returns them, unsorted: right only while chunks are sent in ascending order. Violates: "failed lists the corrupt chunks' index values in ascending order"."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError as error:
        return {"index": index, "error": str(error)}
    return {"index": index, "imported": len(rows)}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    return {"imported": sum(r["imported"] for r in results if "imported" in r),
            "failed": [r["index"] for r in results if "error" in r]}
