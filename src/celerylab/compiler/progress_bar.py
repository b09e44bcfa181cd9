"""Progress of parallel notebook runs: one bar per notebook on a terminal, one line per event otherwise."""
from __future__ import annotations

import sys

from tqdm import tqdm

from celerylab.i18n import t


class ProgressBar:
    """start / advance / finish per notebook label; quiet=True prints nothing."""

    def __init__(self, stream=None, bars: bool | None = None, quiet: bool = False):
        self.stream = stream or sys.stderr
        self.bars = bool(getattr(self.stream, "isatty", lambda: False)()) if bars is None else bars
        self.quiet = quiet
        self._bars: dict[str, tqdm] = {}

    def _say(self, key: str, **values: object) -> None:
        if not self.quiet:
            print(t(key, **values), file=self.stream, flush=True)

    def start(self, label: str, total: int) -> None:
        if self.quiet:
            return
        if self.bars:
            self._bars[label] = tqdm(total=total, desc=label, position=len(self._bars), file=self.stream,
                                     unit=t("build.progress.unit"), leave=True, dynamic_ncols=True)
        else:
            self._say("build.progress.start", notebook=label, cells=total)

    def advance(self, label: str, cell_id: str | None) -> None:
        bar = self._bars.get(label)
        if bar is not None:
            bar.set_postfix_str(cell_id or "", refresh=False)
            bar.update(1)

    def finish(self, label: str, seconds: float, ok: bool) -> None:
        bar = self._bars.get(label)
        if bar is not None:
            bar.refresh()
        if not self.bars:
            self._say("build.progress.done" if ok else "build.progress.failed", notebook=label,
                      seconds=f"{seconds:.1f}")

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()
        self._bars.clear()
