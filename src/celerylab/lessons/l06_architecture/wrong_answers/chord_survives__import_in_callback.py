"""The chunk task only passes its rows along; the callback validates and imports every chunk itself, so the chunk tasks are empty shells and the whole import runs in one process. Violates: "`ex.import_chunk(index, rows)` imports one chunk" / "Each chunk stays an `ex.import_chunk` task of its own." Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    return {"index": index, "rows": rows}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    imported, failed = 0, []
    for chunk in results:
        try:
            validate_rows(chunk["rows"])
        except ValueError:
            failed.append(chunk["index"])
        else:
            imported += len(chunk["rows"])
    return {"imported": imported, "failed": sorted(failed)}
