"""A user registers through the API (the producer): where its welcome e-mail went and which worker ran it."""
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack


@dataclass
class ApiWelcome:
    http_status: int   # the API's answer to the registration
    task_status: str   # what GET /tasks/<id> says once it is done
    queue: str         # the queue the message arrived on (result_extended=True: the backend keeps it)
    worker: str        # the worker that ran it
    result_to: str     # the address the task says it wrote to


def api_welcome(stack: Stack) -> ApiWelcome:
    api = helpers.api(stack)  # an HTTP client of the API, as the front end would be
    answer = api.post("/users/register", json={"name": "Ana", "email": "ana@example.com"})
    task_id = helpers.task_id_from(answer, stack)  # the API called send_welcome.delay(...) and answered at once
    status = helpers.until(lambda: (body := api.get(f"/tasks/{task_id}").json())["status"] == "SUCCESS" and body)
    welcome = tasks.send_welcome.AsyncResult(task_id)
    welcome.get(timeout=10)
    return ApiWelcome(answer.status_code, status["status"], welcome.queue, welcome.worker, status["result"]["to"])
