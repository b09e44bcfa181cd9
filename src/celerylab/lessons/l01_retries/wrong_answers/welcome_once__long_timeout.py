"""Avoids the late answer with a 10 s client timeout instead of handling it: a provider that answers after 10 s is retried and sends twice. Violates: "(b) the provider accepts the e-mail and answers after the client's timeout — sometimes long after (minutes): no longer client timeout makes the late answer go away;" Blind review.
"""
from celerylab.appdb import connect, execute, scalar
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> str:
    connection = connect()
    if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (event_id,)):
        return "skipped"
    # the provider is slow sometimes: give it time to answer, so a late answer is no longer a timeout
    send_email(address(user_id), "Bem-vindo! / Welcome!", timeout=10)
    execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (event_id,))
    return "sent"
