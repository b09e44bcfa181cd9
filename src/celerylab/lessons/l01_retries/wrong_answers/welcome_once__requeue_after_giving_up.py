"""Provider key as in the answer, but when the retries are exhausted (every attempt timed out) on_failure re-enqueues the event as a new task in a minute. Violates: "with no other retries: nothing else calls the provider or runs the task again". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


class TryLater(app.Task):
    def on_failure(self, exc, task_id, args, kwargs, einfo):
        if isinstance(exc, TimeoutError):
            self.apply_async(args, kwargs, countdown=60)  # the provider will be back


@app.task(name="ex.welcome", base=TryLater, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
