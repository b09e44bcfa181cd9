"""How a measured value reads in the notebook's language: a decimal comma and the lesson's words for True/False in Portuguese."""
from __future__ import annotations

from celerylab.i18n import get_lang, t


def number(value: float, digits: int | None = None) -> str:
    """A float as the reader writes it: ``1.5`` in English, ``1,5`` in Portuguese (`digits`: fixed decimals)."""
    text = f"{value:.{digits}f}" if digits is not None else repr(float(value))
    return text.replace(".", ",") if get_lang() == "pt" else text


def value(prefix: str, item) -> str:
    """Any printed value: booleans through the catalog (``<prefix>.bool.true``), floats with `number`,
    tuples and lists element by element (``;`` between elements in Portuguese, where ``,`` is the decimal mark),
    a dict holding floats or booleans as ``key=value`` pairs (a retry policy: ``interval_step=0,2; ...``)."""
    if isinstance(item, bool):
        return t(f"{prefix}.bool.{str(item).lower()}")
    if isinstance(item, float):
        return number(item)
    separator = "; " if get_lang() == "pt" else ", "
    if isinstance(item, (list, tuple)) and _has_float_or_bool(item):
        inner = separator.join(value(prefix, element) for element in item)
        return f"[{inner}]" if isinstance(item, list) else f"({inner})"
    if isinstance(item, dict) and _has_float_or_bool(item.values()):
        return separator.join(f"{key}={value(prefix, element)}" for key, element in item.items())
    return str(item)


def _has_float_or_bool(items) -> bool:
    return any(isinstance(element, (float, bool)) or isinstance(element, (list, tuple)) and _has_float_or_bool(element)
               for element in items)
