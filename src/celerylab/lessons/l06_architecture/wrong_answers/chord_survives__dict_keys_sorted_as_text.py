"""Returns {index: rows} from each chunk; JSON turns the int keys into strings, so the indices are sorted as text before being turned back into ints ([10, 2] instead of [2, 10]), which only looks right while every index is a single digit. Violates: "`failed` lists the corrupt chunks' `index` values in ascending order". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return {index: None}
    return {index: len(rows)}


@app.task(name="ex.consolidate")
def consolidate(results: list):
    merged: dict = {}
    for result in results:
        merged.update(result)
    failed = [int(index) for index in sorted(index for index, count in merged.items() if count is None)]
    return {"imported": sum(count for count in merged.values() if count is not None), "failed": failed}
