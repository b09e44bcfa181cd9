"""Learners' notebooks read through the hub's REST API with a token (scopes: list:users, read:users,
access:servers): each running server's Jupyter contents API, as a browser would."""
from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone

from celerylab.grader.submission import MAX_BYTES
from celerylab.hub.handed_in import Learner, Notebook, is_exercises
from celerylab.i18n import t

TIMEOUT = 30


class HubError(Exception):
    """The hub refused or could not be reached; the message is one translated line."""


class Hub:
    """The hub at `url` (``http://host:8000``), asked with `token`."""

    def __init__(self, url: str, token: str, timeout: float = TIMEOUT):
        self.url, self.token, self.timeout = url.rstrip("/"), token, timeout

    def get(self, path: str) -> object:
        request = urllib.request.Request(self.url + path, headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read(MAX_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise HubError(t("hub.collect.http", url=self.url + path, status=error.code)) from None
        except (urllib.error.URLError, OSError) as error:
            raise HubError(t("hub.collect.unreachable", url=self.url, error=getattr(error, "reason", error))) from None
        if len(raw) > MAX_BYTES:
            raise HubError(t("hub.collect.too_large", url=self.url + path))
        try:
            return json.loads(raw)
        except ValueError:
            raise HubError(t("hub.collect.not_json", url=self.url + path)) from None

    def users(self) -> list[dict]:
        found = self.get("/hub/api/users")
        return [user for user in found if isinstance(user, dict)] if isinstance(found, list) else []

    def learners(self) -> list[Learner]:
        """Every user of the hub but its admins; the notebooks of those whose server is running (its root is the
        learner's copy of the course: deploy/jupyterhub)."""
        found = []
        for user in sorted(self.users(), key=lambda each: str(each.get("name"))):
            if user.get("admin") or not isinstance(user.get("name"), str):
                continue
            learner = Learner(user["name"])
            server = (user.get("servers") or {}).get("") or {}
            if not server.get("ready") or not isinstance(server.get("url"), str):
                learner.problem = t("hub.collect.not_running")
            else:
                try:
                    learner.notebooks = self.notebooks(server["url"])
                except HubError as problem:  # one learner's server or folder: the others are still read
                    learner.problem = str(problem)
            found.append(learner)
        return found

    def contents(self, server_url: str, path: str) -> dict:
        quoted = urllib.parse.quote(path)
        model = self.get(f"{server_url.rstrip('/')}/api/contents/{quoted}?content=1")
        return model if isinstance(model, dict) else {}

    def notebooks(self, server_url: str) -> list[Notebook]:
        kept = []
        top = self.contents(server_url, "exercises")
        for lang in top.get("content") or []:
            if lang.get("type") != "directory":
                continue
            for item in self.contents(server_url, lang["path"]).get("content") or []:
                if item.get("type") == "notebook" and is_exercises(item.get("name", "")):
                    model = self.contents(server_url, item["path"])
                    raw = json.dumps(model.get("content"), ensure_ascii=False, indent=1).encode("utf-8")
                    kept.append(Notebook(item["name"], raw, modified(model.get("last_modified")), lang.get("name", "")))
        return kept


def modified(text: object) -> datetime:
    """The contents API's ``last_modified`` (ISO, UTC ``Z``); now when it is missing or no date."""
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return datetime.now(timezone.utc)
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)
