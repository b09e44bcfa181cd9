"""Returns None for a corrupt chunk and reports the results’ positions: right only while indices happen to equal positions. Violates: "failed lists the corrupt chunks’ index values ... which is not its position in the chord"."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError as error:
        return None
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    return {"imported": sum(r for r in results if r is not None),
            "failed": [position for position, r in enumerate(results) if r is None]}
