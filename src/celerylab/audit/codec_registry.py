"""kombu's codec registry as it was before an app's load: codecs the user's modules register go with them."""
from __future__ import annotations

from contextlib import contextmanager

from kombu.serialization import registry

TABLES = ("_encoders", "_decoders", "name_to_type", "type_to_name", "_disabled_content_types")


@contextmanager
def kept():
    """Put back every table of the registry on exit (an audited app's `register("json", ...)` replaced kombu's)."""
    saved = {name: getattr(registry, name).copy() for name in TABLES if hasattr(registry, name)}
    try:
        yield
    finally:
        for name, table in saved.items():
            current = getattr(registry, name)
            current.clear()
            current.update(table)
