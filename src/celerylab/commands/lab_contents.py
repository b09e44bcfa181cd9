"""The lab's contents manager: notebooks open with the kernel's full `language_info`, so opening one does not mark it modified."""
from __future__ import annotations

from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager


def kernel_language_info() -> dict[str, Any]:
    """What the lab's `python3` kernel (ipykernel, this interpreter) reports as `language_info`."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


def with_kernel_language(notebook: Any, language_info: dict[str, Any]) -> Any:
    """`notebook` with `metadata.language_info` completed from the kernel's, when it describes the same language.

    JupyterLab replaces the notebook's `language_info` with the kernel's as soon as the kernel is ready,
    and any difference marks the tab as modified; the course's notebooks keep only `{"name": "python"}`
    (the Python version is the reader's, not the author's). Nothing is written to disk here: the learner's
    next save stores what the kernel reported anyway.
    """
    metadata = getattr(notebook, "metadata", None)
    if not isinstance(metadata, dict):
        return notebook
    current = metadata.get("language_info")
    if current is None or (isinstance(current, dict) and current.get("name") == language_info["name"]):
        metadata["language_info"] = {**(current or {}), **language_info}
    return notebook


class CourseContentsManager(AsyncLargeFileManager):
    """JupyterLab's default contents manager, with notebooks' `language_info` completed from the kernel's on read."""

    async def get(self, path, content=True, type=None, format=None, require_hash=False):
        model = await super().get(path, content=content, type=type, format=format, require_hash=require_hash)
        if model.get("type") == "notebook" and model.get("content") is not None:
            with_kernel_language(model["content"], kernel_language_info())
        return model
