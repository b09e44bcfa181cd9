"""The stack's client app: a stack's own settings reach its apps and leave with it, not into the next stack."""
from __future__ import annotations

from celerylab.stack import client

MODULE = "celerylab.stack.smoke"


def test_a_stack_setting_does_not_leak_into_the_next_stack():
    first, module_app = client.client_app(MODULE, "memory://", "first", {"task_acks_late": True,
                                                                       "worker_prefetch_multiplier": 1}, [], owner="first")
    own_prefetch = module_app.conf.changes.get("worker_prefetch_multiplier", "unset")
    assert first.conf.task_acks_late is True and module_app.conf.task_acks_late is True
    client.release("first")
    second, same_app = client.client_app(MODULE, "memory://", "second", {}, [], owner="second")
    try:
        assert same_app is module_app
        assert second.conf.task_acks_late is False and module_app.conf.task_acks_late is False
        assert module_app.conf.worker_prefetch_multiplier == 4 and own_prefetch == 1
    finally:
        client.release("second")


def test_a_setting_the_module_sets_itself_comes_back_after_a_stack_changed_it():
    _, module_app = client.client_app(MODULE, "memory://", "probe", {}, [], owner="probe")
    client.release("probe")
    module_app.conf.task_default_rate_limit = "10/m"  # as if the module's own code had set it
    try:
        client.client_app(MODULE, "memory://", "faster", {"task_default_rate_limit": "100/m"}, [], owner="faster")
        assert module_app.conf.task_default_rate_limit == "100/m"
        client.release("faster")
        client.client_app(MODULE, "memory://", "plain", {}, [], owner="plain")
        assert module_app.conf.task_default_rate_limit == "10/m"
        client.release("plain")
    finally:
        module_app.conf.changes.pop("task_default_rate_limit", None)
        client._own_settings.get(id(module_app), {}).pop("task_default_rate_limit", None)


def test_a_stack_whose_settings_name_the_transport_options_leaves_the_next_stack_its_own_namespace():
    """A stack's `broker_transport_options` (a short visibility timeout, say) replaced the namespace the next stack's
    rebind had just set: the module app published under the earlier stack's key prefix, which no worker reads."""
    client.client_app(MODULE, "memory://", "celerylab:before:", {}, [], owner="before")
    client.release("before")
    options = {"global_keyprefix": "celerylab:tuned:", "visibility_timeout": 1}
    _, module_app = client.client_app(MODULE, "memory://", "celerylab:tuned:", {"broker_transport_options": options},
                                      [], owner="tuned")
    assert module_app.conf.broker_transport_options == options
    client.release("tuned")
    _, same_app = client.client_app(MODULE, "memory://", "celerylab:next:", {}, [], owner="next")
    try:
        assert same_app.conf.broker_transport_options == {"global_keyprefix": "celerylab:next:"}
        assert same_app.conf.result_backend_transport_options == {"global_keyprefix": "celerylab:next:"}
    finally:
        client.release("next")
