"""The memory high watermark a node runs with when its configuration sets none."""

import re


def high_watermark(node) -> float | None:
    """`vm_memory_high_watermark` of the running node as a fraction of the machine's memory (None if unreadable)."""
    out = node.ctl("eval", "application:get_env(rabbit, vm_memory_high_watermark).")
    found = re.search(r"\{ok,\s*(?:\{relative,\s*)?([0-9.]+)", out)
    return float(found.group(1)) if found else None
