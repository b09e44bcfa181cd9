"""Always splits the report into four equal parts (seconds / 4), which keeps each message under 3 s for the 4 s and 6 s reports but holds a 10-second part's message for a 40 s report and a much longer one for longer reports. Violates: "without ever holding a message longer than the timeout". Blind review."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PARTS = 4


# Cost: four messages per report; a crash redoes a quarter of the report.
@app.task(name="ex.report", bind=True, acks_late=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    crunch(label, part, seconds / PARTS)
    if part + 1 < PARTS:
        report.apply_async((label, seconds, part + 1))
