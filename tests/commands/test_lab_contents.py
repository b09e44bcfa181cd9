"""The lab's contents manager: a notebook read from disk carries the kernel's `language_info`, and nothing else changes."""
from __future__ import annotations

import asyncio
from pathlib import Path

import nbformat

from celerylab.commands.lab_contents import CourseContentsManager, kernel_language_info, with_kernel_language


def course_notebook(path: Path, language_info: dict | None) -> bytes:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    if language_info is not None:
        notebook.metadata["language_info"] = language_info
    nbformat.write(notebook, path)
    return path.read_bytes()


def test_the_kernels_language_info_is_what_ipykernel_reports():
    info = kernel_language_info()
    assert info["name"] == "python" and info["version"].count(".") == 2 and info["file_extension"] == ".py"


def test_a_course_notebooks_short_language_info_is_completed_and_the_file_is_untouched(tmp_path: Path):
    on_disk = course_notebook(tmp_path / "lesson.ipynb", {"name": "python"})
    model = asyncio.run(CourseContentsManager(root_dir=str(tmp_path)).get("lesson.ipynb"))
    assert model["content"]["metadata"]["language_info"] == kernel_language_info()
    assert model["content"]["cells"][0]["source"] == "print(1)"
    assert (tmp_path / "lesson.ipynb").read_bytes() == on_disk


def test_missing_or_stale_language_info_is_completed_another_language_is_kept():
    info = {"name": "python", "version": "9.9.9", "file_extension": ".py"}
    for current in (None, {"name": "python"}, {"name": "python", "version": "3.0.1"}):
        notebook = nbformat.v4.new_notebook()
        if current is not None:
            notebook.metadata["language_info"] = current
        assert with_kernel_language(notebook, info).metadata["language_info"] == info
    julia = nbformat.v4.new_notebook(metadata={"language_info": {"name": "julia", "version": "1.10"}})
    assert with_kernel_language(julia, info).metadata["language_info"] == {"name": "julia", "version": "1.10"}


def test_files_and_folders_are_served_as_before(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("olá", encoding="utf-8")
    manager = CourseContentsManager(root_dir=str(tmp_path))
    assert asyncio.run(manager.get("notes.txt"))["content"] == "olá"
    assert [entry["name"] for entry in asyncio.run(manager.get(""))["content"]] == ["notes.txt"]


def test_the_lab_uses_it(tmp_path: Path):
    from celerylab.cli import build_parser
    from celerylab.commands import lab

    argv = lab.lab_argv(build_parser().parse_args(["lab"]), tmp_path, "pt", scope=tmp_path / "scope")
    assert "--ServerApp.contents_manager_class=celerylab.commands.lab_contents.CourseContentsManager" in argv
