"""The live stack: real Celery workers, beats and flower on a private broker, with no orphans."""
from __future__ import annotations

__all__ = ["Stack", "StackSpec", "WorkerSpec", "StackError", "create_app", "Node", "WorkerNode", "BeatNode",
           "HttpNode", "FlowerNode", "ServiceNode"]


def __getattr__(name: str):
    if name == "Stack":
        from celerylab.stack.stack import Stack
        return Stack
    if name in ("StackSpec", "WorkerSpec"):
        from celerylab.stack import spec
        return getattr(spec, name)
    if name == "StackError":
        from celerylab.stack.errors import StackError
        return StackError
    if name in ("Node", "BeatNode", "HttpNode", "FlowerNode", "ServiceNode"):
        from celerylab.stack import nodes
        return getattr(nodes, name)
    if name == "WorkerNode":
        from celerylab.stack.worker_node import WorkerNode
        return WorkerNode
    if name == "create_app":
        from celerylab.stack.appconfig import create_app
        return create_app
    raise AttributeError(name)
