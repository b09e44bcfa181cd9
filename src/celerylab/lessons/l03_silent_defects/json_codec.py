"""Whether the serializer a process calls "json" is kombu's own JSON: read where the worker runs tasks and where the
API publishes. A serializer re-registered under that name (or another name, or content type, taking over
application/json) can carry pickle inside a JSON document: the settings still read "json", and the worker unpickles
what the broker hands it."""
from __future__ import annotations

import uuid
from datetime import date, datetime, time
from decimal import Decimal

from kombu.serialization import registry
from kombu.utils import json as kombu_json

CONTENT_TYPE = "application/json"
OWN_TYPES = {datetime, date, time, Decimal, uuid.UUID}  # the types kombu's JSON registers itself
OWN_MARKERS = {"datetime", "date", "time", "decimal", "uuid", "bytes", "base64"}


def _kombu(function, name: str) -> bool:
    """The function `name` kombu's JSON module defines (not one put in its place)."""
    code = getattr(function, "__code__", None)
    return code is not None and code.co_filename == kombu_json.__file__ and code.co_name == name


def _encodes(value) -> bool:
    try:
        registry.dumps(value, "json")
    except Exception:  # kombu's JSON refuses what JSON cannot carry: EncodeError
        return False
    return True


class _Opaque:
    """An object JSON cannot carry (the check's own, so no type table knows it)."""


def faults() -> list[str]:
    """What differs from kombu's own JSON serializer in this process; [] when nothing does."""
    found = []
    if registry.name_to_type.get("json") != CONTENT_TYPE:
        found.append(f'"json" is sent as {registry.name_to_type.get("json")!r}, not {CONTENT_TYPE}')
    if registry.type_to_name.get(CONTENT_TYPE) != "json":
        found.append(f'{CONTENT_TYPE} is read by the serializer {registry.type_to_name.get(CONTENT_TYPE)!r}')
    codec = registry._encoders.get("json")
    if codec is None or not _kombu(codec.encoder, "dumps"):
        found.append('"json" encodes with a function that is not kombu.utils.json.dumps')
    if not _kombu(registry._decoders.get(CONTENT_TYPE), "loads"):
        found.append(f"{CONTENT_TYPE} decodes with a function that is not kombu.utils.json.loads")
    carried = [name for name, value in (("set", {1, 2}), ("object", _Opaque())) if _encodes(value)]
    if carried:
        found.append(f'"json" encodes what JSON cannot carry: {", ".join(carried)}')
    # kombu's type table (register_type): its own types only
    added = [getattr(kind, "__name__", repr(kind)) for kind in getattr(kombu_json, "_encoders", {}) if kind not in OWN_TYPES]
    added += [marker for marker in getattr(kombu_json, "_decoders", {}) if marker not in OWN_MARKERS]
    if added:
        found.append(f"kombu's JSON type table also carries: {', '.join(sorted(set(added)))}")
    return found
