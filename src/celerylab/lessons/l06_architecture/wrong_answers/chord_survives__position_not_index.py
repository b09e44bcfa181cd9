"""Lists failed chunks by their position in the chord's result list (enumerate) instead of the index each chunk was sent with, which only coincides when chunks are sent as 0, 1, 2... in order. Violates: "the number each chunk was sent with, which is not its position in the chord". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, validate_rows


@app.task(name="ex.import_chunk")
def import_chunk(index: int, rows: list[int]):
    try:
        validate_rows(rows)
    except ValueError:
        return None
    return len(rows)


@app.task(name="ex.consolidate")
def consolidate(results: list):
    failed = [position for position, count in enumerate(results) if count is None]
    return {"imported": sum(count for count in results if count is not None), "failed": failed}
