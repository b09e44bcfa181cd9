"""What happened to an export's final paths while a block ran, seen from the check's own process: replaced in one step, or written."""
from __future__ import annotations

import ctypes
import os
import shutil
import struct
import sys
import tempfile
from pathlib import Path

# inotify(7): every way a name in the folder can change; only IN_MOVED_TO (a rename onto it) replaces it in one step
EVENTS = {0x2: "modify", 0x8: "close_write", 0x40: "moved_from", 0x80: "moved_to", 0x100: "create", 0x200: "delete"}
IN_Q_OVERFLOW, ONE_STEP = 0x4000, "moved_to"
HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name, NUL-padded)


class FinalPaths:
    """Watches the final paths of exports in one folder while the block runs.

    On Linux the kernel reports every change to their names (inotify, read after the block: nothing is missed however
    fast it was): opening one for writing (even to write nothing), truncating, deleting or creating it, or moving it
    away. Elsewhere, a hard link the check keeps to each file already there shows whether that file's own content was
    rewritten in place. ``written`` lists, per final path, everything that was not a replacement in one step."""

    def __init__(self, folder: Path, names: tuple[str, ...], inotify: bool | None = None) -> None:
        self.folder, self.names = Path(folder), names
        self.inotify = sys.platform.startswith("linux") if inotify is None else inotify
        self.fd = -1
        self.witnesses: Path | None = None
        self.before: dict[str, str] = {}
        self.written: list[str] = []

    def __enter__(self) -> "FinalPaths":
        if self.inotify:
            libc = ctypes.CDLL(None, use_errno=True)
            self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if self.fd < 0 or libc.inotify_add_watch(self.fd, os.fsencode(self.folder), sum(EVENTS)) < 0:
                raise OSError(ctypes.get_errno(), f"inotify on {self.folder}")
        else:
            self.witnesses = Path(tempfile.mkdtemp(prefix="celerylab-witness-"))
            for name in self.names:
                if (self.folder / name).is_file():
                    os.link(self.folder / name, self.witnesses / name)  # the same file, under a name only the check knows
                    self.before[name] = (self.witnesses / name).read_text(encoding="utf-8")
        return self

    def __exit__(self, *exc) -> None:
        if self.inotify:
            try:
                self.written = self._events()
            finally:
                os.close(self.fd)
        elif self.witnesses is not None:
            self.written = [f"{name}: rewritten" for name, text in self.before.items()
                            if (self.witnesses / name).read_text(encoding="utf-8") != text]
            shutil.rmtree(self.witnesses, ignore_errors=True)

    def _events(self) -> list[str]:
        seen: dict[str, set[str]] = {name: set() for name in self.names}
        data = b""
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        offset = 0
        while offset + HEADER.size <= len(data):
            _, mask, _, length = HEADER.unpack_from(data, offset)
            name = data[offset + HEADER.size:offset + HEADER.size + length].rstrip(b"\0").decode(errors="replace")
            offset += HEADER.size + length
            if mask & IN_Q_OVERFLOW:  # the kernel dropped events: nothing can be said to be clean
                return ["? (events lost)"]
            if name in seen:
                seen[name].update(label for bit, label in EVENTS.items() if mask & bit)
        return [f"{name}: {', '.join(sorted(labels - {ONE_STEP}))}" for name, labels in seen.items()
                if labels - {ONE_STEP}]
