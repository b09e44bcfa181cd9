"""Reading learners' notebooks through the hub's REST API: running servers read, stopped ones and admins named."""
from __future__ import annotations

import json

import pytest

from celerylab.hub.hub_api import Hub, HubError

NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
ANSWERS = {
    "/hub/api/users": [
        {"name": "ana", "admin": False, "servers": {"": {"ready": True, "url": "/user/ana/"}}},
        {"name": "bia", "admin": False, "servers": {}},
        {"name": "prof", "admin": True, "servers": {"": {"ready": True, "url": "/user/prof/"}}},
        {"name": "caio", "admin": False, "servers": {"": {"ready": True, "url": "/user/caio/"}}},
    ],
    "/user/ana/api/contents/exercises?content=1": {"content": [
        {"type": "directory", "path": "exercises/pt"}, {"type": "file", "path": "x"}]},
    "/user/ana/api/contents/exercises/pt?content=1": {"content": [
        {"type": "notebook", "name": "01_retries_exercises.ipynb", "path": "exercises/pt/01_retries_exercises.ipynb"},
        {"type": "notebook", "name": "scratch.ipynb", "path": "exercises/pt/scratch.ipynb"}]},
    "/user/ana/api/contents/exercises/pt/01_retries_exercises.ipynb?content=1": {
        "content": NOTEBOOK, "last_modified": "2026-12-06T03:59:00.5Z"},
}


@pytest.fixture
def hub(monkeypatch):
    asked = []

    def get(self, path):
        asked.append(path)
        if path not in ANSWERS:
            raise HubError(f"404 {path}")
        return ANSWERS[path]

    monkeypatch.setattr(Hub, "get", get)
    return Hub("http://hub:8000/", "token"), asked


def test_running_servers_are_read_stopped_ones_named_admins_left_out(hub):
    client, asked = hub
    learners = {each.name: each for each in client.learners()}
    assert sorted(learners) == ["ana", "bia", "caio"]
    (notebook,) = learners["ana"].notebooks
    assert json.loads(notebook.raw) == NOTEBOOK and notebook.modified.isoformat() == "2026-12-06T03:59:00.500000+00:00"
    assert learners["bia"].notebooks == [] and learners["bia"].problem
    assert learners["caio"].notebooks == [] and "404" in learners["caio"].problem  # no course folder: named
    assert not any(path.startswith("/user/prof/") for path in asked)
    assert not any("scratch" in path for path in asked)


def test_an_unreachable_hub_is_one_translated_line():
    with pytest.raises(HubError) as caught:
        Hub("http://127.0.0.1:9", "token", timeout=2).users()
    assert "127.0.0.1:9" in str(caught.value)
