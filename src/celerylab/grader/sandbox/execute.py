"""Executing a submission with nbclient under limits: per cell, per notebook, and output size."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from queue import Empty

import nbformat
from jupyter_client.asynchronous import AsyncKernelClient
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async

from celerylab.polling import Deadline


class ReadyKernelClient(AsyncKernelClient):
    """A kernel client ready as soon as the kernel answered kernel_info and its IOPub sent a message: jupyter_client's
    own wait then reads IOPub until 0.2 s pass without a message, a fixed wait per kernel for messages of the
    kernel_info request, which nbclient skips anyway (it reads only the replies to each cell's request)."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        end = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                pass
            else:
                if reply["msg_type"] == "kernel_info_reply":
                    try:  # IOPub connected: it carries the kernel's status for this request
                        await self.iopub_channel.get_msg(timeout=0.2)
                    except Empty:
                        pass
                    else:
                        self._handle_kernel_info_reply(reply)
                        return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > end:
                raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")


class LimitedClient(NotebookClient):
    """A NotebookClient that stops keeping output past `output_limit` bytes and interrupts the cell."""

    def __init__(self, notebook, output_limit: int, **kwargs):
        super().__init__(notebook, **kwargs)
        self.output_limit = output_limit
        self.output_bytes = 0
        self.truncated_cells: set[int] = set()
        self.replies: dict[int, str] = {}
        self.on_cell_executed = self._remember_reply

    def create_kernel_manager(self):
        manager = super().create_kernel_manager()
        manager.client_factory = ReadyKernelClient
        return manager

    def _remember_reply(self, cell, cell_index, execute_reply) -> None:
        self.replies[cell_index] = (execute_reply or {}).get("content", {}).get("status", "unknown")

    def output(self, outs, msg, display_id, cell_index):
        content = msg.get("content", {})
        self.output_bytes += len(str(content.get("text", ""))) + len(str(content.get("data", "")))
        if self.output_bytes <= self.output_limit:
            return super().output(outs, msg, display_id, cell_index)
        if cell_index not in self.truncated_cells:
            self.truncated_cells.add(cell_index)
            asyncio.ensure_future(ensure_async(self.km.interrupt_kernel()))
        return None


def note(kind: str, index: int | None = None, **values) -> dict:
    """A note on cell `index` (0-based here), stored as JupyterLab counts cells: from 1."""
    return {"kind": kind, "cell": None if index is None else index + 1, **{k: str(v)[:300] for k, v in values.items()}}


def cell_error(cell, status: str) -> str | None:
    """The error a cell raised (``ZeroDivisionError: division by zero``), from its error output or reply."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            name, value = output.get("ename") or "Error", " ".join(str(output.get("evalue") or "").split())
            return f"{name}: {value}" if value else name
    return "Error" if status in ("error", "aborted") else None


def execute(notebook: nbformat.NotebookNode, workdir: str | Path, cell_timeout: float,
            notebook_timeout: float, output_limit: int) -> list[dict]:
    """Run every code cell in a fresh kernel whose folder is `workdir`; returns notes on what went wrong."""
    client = LimitedClient(notebook, output_limit, kernel_name="python3", allow_errors=True,
                           interrupt_on_timeout=False, shutdown_kernel="immediate",
                           resources={"metadata": {"path": str(workdir)}}, iopub_timeout=5)
    notes: list[dict] = []
    budget = Deadline(notebook_timeout)
    with client.setup_kernel(cwd=str(workdir)):
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            if budget.passed:
                notes.append(note("notebook_timeout", index, seconds=notebook_timeout))
                break
            client.timeout = max(1, int(min(cell_timeout, budget.remaining())))
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                if index in client.truncated_cells:  # the output limit was hit before the clock ran out
                    notes.append(note("output_limit", index, limit=output_limit))
                kind = "cell_timeout" if client.timeout >= cell_timeout else "notebook_timeout"
                notes.append(note(kind, index, seconds=client.timeout if kind == "cell_timeout" else notebook_timeout))
                break
            except DeadKernelError:
                notes.append(note("kernel_died", index))
                break
            if index in client.truncated_cells:
                notes.append(note("output_limit", index, limit=output_limit))
            error = cell_error(cell, client.replies.get(index, "ok"))
            if error:
                notes.append(note("cell_error", index, error=error))
    return notes
