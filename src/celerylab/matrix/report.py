"""One matrix cell in words: a claim's outcome on a release and the values its test observed."""
from __future__ import annotations

import json

from celerylab.i18n import t

MESSAGE_SHOWN = 160  # a failure's first line, cut: the observed values say the rest


def observed_text(observed: dict) -> str:
    """`runs=1, state=PENDING`: each observed value as compact JSON (strings bare)."""
    return ", ".join(f"{name}={value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)}"
                     for name, value in observed.items())


def describe_result(result: dict | None, lang: str | None = None) -> str:
    """`holds · runs=1` / `does not hold · runs=2 (assert 2 == 1)` / `not run`, in `lang`."""
    if result is None:
        return t("matrix.cell.absent", lang)
    parts = [t(f"matrix.cell.{result['outcome']}", lang)]
    if result.get("observed"):
        parts.append(observed_text(result["observed"]))
    text = " · ".join(parts)
    if result["outcome"] != "passed" and result.get("message"):
        message = result["message"]
        text += f" ({message if len(message) <= MESSAGE_SHOWN else message[:MESSAGE_SHOWN - 1] + '…'})"
    return text
