"""A second Flower with no authentication at all (the notes' compose): what anybody can read and do through it."""
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack


@dataclass
class FlowerOpen:
    command: str                           # its command line (ports and database left out)
    answers: dict[str, tuple[int, bool]]   # "METHOD path" -> (HTTP status, whether the body shows the task's args)
    workers_api: str                       # the body of GET /api/workers
    workers_alive: bool                    # the compose workers, after the shutdown request


def flower_open(stack: Stack) -> FlowerOpen:
    node = helpers.open_flower(stack)  # no FLOWER_BASIC_AUTH
    try:
        command = " ".join(arg for arg in node.argv[node.argv.index("flower"):] if not arg.startswith(("--port", "--db")))
        nobody = helpers.client(node.url)  # nobody identifies
        helpers.until(lambda: any(name.startswith("celery@default") for name in helpers.workers_view(nobody)))
        seen = tasks.send_welcome.delay("bia@example.com", "Bia")
        seen.get(timeout=10)
        helpers.until(lambda: nobody.get(f"/task/{seen.id}").status_code == 200)  # Flower gets the events a moment later
        requests = [("GET", "/"), ("GET", f"/task/{seen.id}"), ("GET", "/api/workers"), ("GET", "/api/tasks"),
                    ("POST", f"/api/task/revoke/{seen.id}"), ("POST", "/api/worker/shutdown/celery@default"),
                    ("GET", "/metrics")]
        responses = {(method, path): nobody.request(method, path) for method, path in requests}
    finally:
        node.terminate()
    answers = {f"{method} {path.replace(seen.id, '<id>')}": (answer.status_code, "bia@example.com" in answer.text)
               for (method, path), answer in responses.items()}
    return FlowerOpen(command, answers, responses[("GET", "/api/workers")].text,
                      all(worker.alive for worker in stack.workers[:3]))
