"""Records the event_id and commits before sending (at most once), so a timeout before acceptance is retried into a skip and no e-mail goes out. Violates: "(c) the provider times out **before** accepting: nothing was sent, and the timeout is real — it must be retried, not swallowed." Blind review.

The claim survives the retry: the retry finds the event_id already recorded and returns
"skipped" in SUCCESS. The timeout is technically retried, but the retry can never send.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (event_id,)):
            return {"status": "skipped", "event_id": event_id}
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (event_id,))
    # committed: whatever happens below, this event will never be sent twice
    return send_email(address(user_id), "Bem-vindo! / Welcome!")
