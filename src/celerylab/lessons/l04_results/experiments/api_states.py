"""The notes' status route, polled over HTTP: a bulk send, two sign-ups and a report, each answer kept."""
from dataclasses import dataclass

import httpx

from celerylab.lessons.l04_results import helpers


@dataclass
class ApiStates:
    answers: dict[str, list[tuple[str, int | None]]]  # name -> each different (status, progress["current"]) read

    def states(self, name: str) -> list[str]:
        """The statuses one task went through, in order (a status read again is kept once)."""
        read = [state for state, _ in self.answers[name]]
        return [state for i, state in enumerate(read) if i == 0 or read[i - 1] != state]

    def progress(self, name: str) -> list[int]:
        """Every progress value read while the task said PROGRESS, in reading order."""
        return [current for state, current in self.answers[name] if state == "PROGRESS" and current]


def api_states(http: httpx.Client) -> ApiStates:
    bulk = http.post("/emails/bulk", params={"countdown": 1}, json=["a@example.com", "b@example.com"])
    ana = http.post("/users", json={"name": "Ana", "email": "ana@example.com"})
    bruno = http.post("/users", json={"name": "Bruno", "email": "bruno@example.com"})
    report = http.post("/reports", json={"student_ids": [1, 2, 3, 4, 5], "period": "2026-11"})
    ids = {name: answer.json()["task_id"] for name, answer in
           {"bulk": bulk, "ana": ana, "bruno": bruno, "report": report}.items()}

    def status(task_id: str) -> tuple[str, int | None]:
        answer = http.get(f"/tasks/{task_id}").json()  # web.task_status: a fresh AsyncResult each request
        return answer["status"], (answer.get("progress") or {}).get("current")

    return ApiStates(helpers.watch(status, ids, done=lambda answer: answer[0] in ("SUCCESS", "FAILURE")))
