"""Validates a chunk with `min(rows) < 0`, which raises `ValueError` on an empty chunk, and counts that error as a corrupt chunk: a valid empty chunk lands in `failed` instead of being imported with 0 rows. Violates: "an empty chunk is valid: it is imported, with 0 rows". Blind review.

Passes while no chunk is empty.
"""
from celerylab.lessons.l06_architecture.tasks import app


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        if min(rows) < 0:
            raise ValueError(f"corrupt chunk {index}")
    except ValueError as error:
        return {"index": index, "error": str(error)}
    return {"index": index, "imported": len(rows)}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    return {"imported": sum(r["imported"] for r in results if "imported" in r),
            "failed": sorted(r["index"] for r in results if "error" in r)}
