"""The json_args check's HTTP app: the learner's API, where requests sent as a group are let in at the same moment."""
from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import sys

MODULE = "CELERYLAB_L03_MODULE"  # the learner's module, whose `api` this serves
GROUP = b"x-celerylab-together"  # "<group>/<size>": held until `size` requests of `group` have arrived
HOLD = 10  # seconds a request of a group waits for the others before going in alone
CODEC = "/.celerylab/json-codec"  # GET: what differs from kombu's own JSON serializer where the API publishes


def served():
    """The learner's API, in the process that serves it (the course imports this module without one)."""
    if MODULE not in os.environ:
        return None
    # threads take turns every 1 µs, not 5 ms: route calls running at once interleave, as under real load; and the
    # API logs at INFO, as one in production does (a log line is written, not dropped)
    sys.setswitchinterval(1e-6)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return importlib.import_module(os.environ[MODULE]).api


learner = served()
groups: dict[bytes, tuple[asyncio.Event, list[int]]] = {}


async def api(scope, receive, send):
    if scope["type"] == "http" and scope.get("path") == CODEC:
        from celerylab.lessons.l03_silent_defects import json_codec

        body = json.dumps(json_codec.faults()).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
        return
    header = dict(scope.get("headers") or []).get(GROUP) if scope["type"] == "http" else None
    if header:
        # the whole body first: what is left once the group goes in is the app's own work, not the network's
        messages = [await receive()]
        while messages[-1].get("more_body"):
            messages.append(await receive())
        receive = replay(messages, receive)
        group, _, size = header.partition(b"/")
        event, arrived = groups.setdefault(group, (asyncio.Event(), []))
        arrived.append(1)
        if len(arrived) >= int(size):
            event.set()
        try:
            await asyncio.wait_for(event.wait(), HOLD)
        except asyncio.TimeoutError:
            pass
    await learner(scope, receive, send)


def replay(messages: list[dict], receive):
    """An ASGI receive that hands out the messages already read, then the connection's own."""
    pending = list(messages)

    async def replayed():
        return pending.pop(0) if pending else await receive()
    return replayed
