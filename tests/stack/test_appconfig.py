"""Stack settings: a lesson's transport options are merged into the stack's key namespace, not put in its place."""
from __future__ import annotations

import json

from celerylab.stack import appconfig


def test_transport_options_keep_the_namespace(monkeypatch):
    monkeypatch.setenv(appconfig.BROKER_ENV, "redis://127.0.0.1:1/0")
    monkeypatch.setenv(appconfig.NAMESPACE_ENV, "celerylab:abc:")
    monkeypatch.setenv(appconfig.SETTINGS_ENV, json.dumps({"broker_transport_options": {"unacked_restore_throttle": 1}}))
    app = appconfig.create_app("t", broker_transport_options={"visibility_timeout": 3}, task_acks_late=True)
    assert app.conf.broker_transport_options == {"global_keyprefix": "celerylab:abc:", "visibility_timeout": 3,
                                                 "unacked_restore_throttle": 1}
    assert app.conf.task_acks_late is True


def test_other_settings_are_replaced():
    app = appconfig.create_app("t2")
    appconfig.apply_settings(app, {"task_routes": {"a": "b"}})
    appconfig.apply_settings(app, {"task_routes": {"c": "d"}})
    assert app.conf.task_routes == {"c": "d"}
