"""The fixture submissions: good, partial and hostile notebooks, each with the points it must get."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

import nbformat

import notebooks

ORPHAN_MARKER = f"celerylab-orphan-{uuid.uuid4().hex[:8]}"
HARDCODED_GREET = '%%writefile ex_greet.py\ndef greet(name, lang):\n    return {"pt": "Olá, Ana!", "en": "Hello, Ana!"}[lang]\n'
PATCH_ON_IMPORT = ("%%writefile ex_greet.py\nfrom celerylab.checks import check_run, verdict\n"
                   "verdict.Verdict.passed = property(lambda self: True)\n"
                   "check_run.CheckRun.expect = lambda self, key, expected, observed, **kw: "
                   "self.verdict.criteria.append(verdict.Criterion(key, expected, expected, True)) or True\n"
                   "def greet(name, lang):\n    return name\n")
EXIT_ON_IMPORT = "%%writefile ex_greet.py\nimport os\nos._exit(1)\n"


def code(source: str, **meta) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    if meta:
        cell.metadata["celerylab"] = meta
    return cell


def solved(lang: str = "pt", **answers) -> nbformat.NotebookNode:
    return notebooks.build(lang, "exercises", {"double": "solution", "greet": "solution", **answers})


def insert_before(notebook, cell_id: str, *cells) -> nbformat.NotebookNode:
    index = [cell.id for cell in notebook.cells].index(cell_id)
    notebook.cells[index:index] = list(cells)
    return notebook


def edited_checks():
    notebook = solved(greet="stub")
    for cell in notebook.cells:
        if cell.metadata.get("celerylab", {}).get("check"):
            cell.source = "print('✅ passou.')"
    notebook.cells.append(code("print('✅ l90.greet: passou.')", check="greet"))
    return notebook


def deleted_and_reordered():
    notebook = solved("en")
    kept = [cell for cell in notebook.cells if cell.id != "check-double"]
    notebook.cells = [kept[-1], *kept[:-1]]                 # check-greet moved first, check-double gone
    return notebook


def monkeypatched():
    patch = ("from celerylab.checks import check_run, notebook as nb, verdict\n"
             "verdict.Verdict.passed = property(lambda self: True)\n"
             "nb.check = lambda *a, **k: print('✅ l90.double: passou.')\n"
             "check_run.run_check = lambda *a, **k: verdict.Verdict('x')\n")
    return insert_before(notebooks.build("pt", "exercises"), "ex-double", code(patch))


def display_patched():
    patch = ("import sys\nget_ipython().showtraceback = lambda *a, **k: None\nsys.excepthook = lambda *a: None\n"
             "print('✅ l90.double: passou.')\nprint('✅ l90.greet: passou.')")
    return insert_before(notebooks.build("pt", "exercises"), "ex-double", code(patch),
                         code("raise RuntimeError('hidden from view')"))


def with_cell_before(cell_id: str, source: str, lang: str = "pt", **answers):
    return insert_before(solved(lang, **answers), cell_id, code(source))


def orphan():
    source = ("import subprocess, sys\n"
              f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', '{ORPHAN_MARKER}'],"
              " start_new_session=True)\nprint('spawned')")
    return with_cell_before("check-greet", source)


def as_json(notebook) -> dict:
    return json.loads(nbformat.writes(notebook))


def duplicate_ids():
    data = as_json(solved())
    data["cells"][1]["id"] = data["cells"][0]["id"]
    return data


def variant(name: str):
    data = as_json(solved())
    data["metadata"]["celerylab"]["variant"] = name
    return data


def unknown_lesson():
    data = as_json(solved())
    data["metadata"]["celerylab"]["lesson"] = "l99_nothing"
    return data


# name -> (builder, {exercise: points}, status)
CASES = {
    "good_pt": (lambda: solved("pt"), {"l90.double": 2, "l90.greet": 3}, "graded"),
    "good_en": (lambda: solved("en"), {"l90.double": 2, "l90.greet": 3}, "graded"),
    "partial": (lambda: solved(greet="stub"), {"l90.double": 2, "l90.greet": 0}, "graded"),
    "unsolved": (lambda: notebooks.build("pt", "exercises"), {"l90.double": 0, "l90.greet": 0}, "graded"),
    "edited_checks": (edited_checks, {"l90.double": 2, "l90.greet": 0}, "graded"),
    "deleted_reordered_checks": (deleted_and_reordered, {"l90.double": 2, "l90.greet": 3}, "graded"),
    "monkeypatch": (monkeypatched, {"l90.double": 0, "l90.greet": 0}, "graded"),
    "display_patch": (display_patched, {"l90.double": 0, "l90.greet": 0}, "graded"),
    "hidden_fail": (lambda: solved(greet=HARDCODED_GREET), {"l90.double": 2, "l90.greet": 0}, "graded"),
    "infinite_loop": (lambda: with_cell_before("ex-greet", "while True:\n    pass"),
                      {"l90.double": 2, "l90.greet": 0}, "graded"),
    "kernel_exit": (lambda: with_cell_before("ex-greet", "import os\nos._exit(3)"),
                    {"l90.double": 2, "l90.greet": 0}, "graded"),
    "module_patch": (lambda: solved(greet=PATCH_ON_IMPORT), {"l90.double": 2, "l90.greet": 0}, "graded"),
    "module_exit": (lambda: solved(greet=EXIT_ON_IMPORT), {"l90.double": 2, "l90.greet": 0}, "graded"),
    "orphan": (orphan, {"l90.double": 2, "l90.greet": 3}, "graded"),
    "gigantic_output": (lambda: with_cell_before("check-greet", "for _ in range(20000):\n    print('x' * 2000)"),
                        {"l90.double": 2, "l90.greet": 3}, "graded"),
    "invalid_json": (lambda: '{"cells": [', {}, "rejected"),
    "nbformat3": (lambda: {"nbformat": 3, "nbformat_minor": 0, "worksheets": [], "cells": []}, {}, "rejected"),
    "duplicate_ids": (duplicate_ids, {"l90.double": 0, "l90.greet": 0}, "rejected"),
    "solutions_variant": (lambda: notebooks.build("pt", "solutions"), {"l90.double": 2, "l90.greet": 3}, "graded"),
    "lesson_variant": (lambda: variant("lesson"), {"l90.double": 0, "l90.greet": 0}, "rejected"),
    "unknown_lesson": (unknown_lesson, {}, "rejected"),
}


def write_all(folder: Path, names=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names or CASES:
        made = CASES[name][0]()
        if isinstance(made, str):
            text = made
        elif isinstance(made, nbformat.NotebookNode):
            text = nbformat.writes(made)
        else:
            text = json.dumps(made)
        (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")
    return folder
