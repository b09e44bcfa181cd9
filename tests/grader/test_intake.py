"""Hostile files are rejected with their own reason before anything blocks: type and size first, then JSON shape."""
from __future__ import annotations

import json
import os
import stat

import nbformat
import pytest

import notebooks
from celerylab.grader.intake import find, read
from celerylab.grader.submission import MAX_CELLS, Rejected, from_bytes


def good() -> dict:
    return json.loads(nbformat.writes(notebooks.build("pt", "exercises")))


def reason(path, base) -> str:
    with pytest.raises(Rejected) as caught:
        from_bytes(read(path, base), path, "k")
    return caught.value.key


def with_cells(count: int) -> dict:
    data = good()
    data["cells"] += [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": "", "outputs": [],
                       "execution_count": None} for i in range(count)]
    return data


def test_special_files_are_never_opened(tmp_path):
    os.mkfifo(tmp_path / "fifo.ipynb")                     # opening it would block forever
    os.symlink("/dev/zero", tmp_path / "zero.ipynb")       # reading it would never end
    os.symlink("loop.ipynb", tmp_path / "loop.ipynb")
    os.symlink("fifo.ipynb", tmp_path / "to_fifo.ipynb")
    (tmp_path / "dir.ipynb").mkdir()
    # opening the FIFO would block: the test's timeout (pytest-timeout) would end it, not this assert
    assert reason(tmp_path / "fifo.ipynb", tmp_path) == "grading.reason.not_regular"
    assert reason(tmp_path / "to_fifo.ipynb", tmp_path) == "grading.reason.not_regular"
    assert reason(tmp_path / "zero.ipynb", tmp_path) == "grading.reason.outside"
    assert reason(tmp_path / "loop.ipynb", tmp_path) == "grading.reason.bad_link"
    assert reason(tmp_path / "dir.ipynb", tmp_path) == "grading.reason.not_regular"


def test_a_device_named_ipynb(tmp_path):
    try:
        os.mknod(tmp_path / "null.ipynb", 0o644 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs root (run the suite as root: sudo)")
    assert reason(tmp_path / "null.ipynb", tmp_path) == "grading.reason.not_regular"


def test_size_is_checked_before_reading(tmp_path):
    with open(tmp_path / "sparse.ipynb", "wb") as stream:
        stream.truncate(60 * 2**20)
    assert reason(tmp_path / "sparse.ipynb", tmp_path) == "grading.reason.too_large"


def test_malformed_json_of_every_kind(tmp_path):
    def rejected(name, data) -> str:
        path = tmp_path / f"{name}.ipynb"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return reason(path, tmp_path)

    assert rejected("deep", "[" * 100_000 + "]" * 100_000) == "grading.reason.too_deep"
    assert rejected("deep_meta", {**good(), "metadata": json.loads("[" * 500 + "]" * 500)}) == "grading.reason.too_deep"
    assert rejected("minor_str", {**good(), "nbformat_minor": "5"}) == "grading.reason.nbformat_minor"
    assert rejected("minor_big", {**good(), "nbformat_minor": 1e9}) == "grading.reason.nbformat_minor"
    assert rejected("major_float", {**good(), "nbformat": 4.0}) == "grading.reason.nbformat"
    assert rejected("meta_list", {**good(), "metadata": ["x"]}) == "grading.reason.invalid_notebook"
    typed = {**good(), "metadata": {"celerylab": {"lesson": ["l90_fixture"], "lang": 5, "variant": {}}}}
    assert rejected("meta_types", typed) == "grading.reason.no_lesson"
    cells = good()["cells"]
    listed = {**good(), "cells": [{**cells[0], "id": ["a"]}, *cells[1:]]}
    assert rejected("list_id", listed) == "grading.reason.invalid_notebook"
    assert rejected("many", with_cells(MAX_CELLS + 1)) == "grading.reason.too_many_cells"


def test_tens_of_thousands_of_cells_are_refused_and_duplicate_ids_found_at_the_limit(tmp_path):
    """Its cost is measured by benchmarks/intake.py (a duplicate-id scan once took quadratic time)."""
    path = tmp_path / "huge.ipynb"
    path.write_text(json.dumps(with_cells(50_000)))
    assert reason(path, tmp_path) == "grading.reason.too_many_nodes"  # refused by the text scan, before json
    path.write_text(json.dumps(with_cells(MAX_CELLS + 1)))
    assert reason(path, tmp_path) == "grading.reason.too_many_cells"
    twins = with_cells(MAX_CELLS - 10)
    twins["cells"][-1]["id"] = twins["cells"][-2]["id"]
    path.write_text(json.dumps(twins))
    assert reason(path, tmp_path) == "grading.reason.duplicate_ids"


def test_every_entry_has_its_own_key(tmp_path):
    outside = tmp_path / "elsewhere"
    for learner in ("ana", "bia"):
        (outside / learner).mkdir(parents=True)
        (outside / learner / "l90.ipynb").write_text("{}")
    subs = tmp_path / "subs"
    (subs / "turma").mkdir(parents=True)
    os.symlink(outside / "ana" / "l90.ipynb", subs / "ana.ipynb")
    os.symlink(outside / "bia" / "l90.ipynb", subs / "bia.ipynb")
    os.symlink(outside, subs / "linked_folder")                  # never entered
    (subs / "turma" / "ana.ipynb").write_text("{}")
    (subs / ".ipynb_checkpoints").mkdir()
    (subs / ".ipynb_checkpoints" / "ana-checkpoint.ipynb").write_text("{}")
    keys = [found.key for found in find(subs)]
    assert keys == ["ana", "bia", "turma/ana"]
    assert reason(subs / "ana.ipynb", subs) == "grading.reason.outside"
    os.symlink("turma/ana.ipynb", subs / "inside.ipynb")          # a link inside the folder is read
    assert read(subs / "inside.ipynb", subs) == b"{}"


def test_depth_is_read_from_the_text_before_any_parser_recurses():
    import ast

    from celerylab.grader.submission import Rejected, parse, text_depth

    assert text_depth(b'{"a": "[[[{{", "b": [[1], [2, [3]]], "c": "\\"[["}') == 4
    with pytest.raises(Rejected) as rejected:
        parse(b"[" * 200_000 + b"]" * 200_000)
    assert rejected.value.key == "grading.reason.too_deep"
    ast.parse("def f():\n    return [[1], {2: (3,)}]\n")  # this thread can still compile afterwards


@pytest.mark.timeout(60)  # the quadratic regex this replaces took hours on this string (it held the GIL)
def test_an_unterminated_string_is_read_in_one_pass():
    from celerylab.grader.submission import Rejected, parse, scan

    raw = b'{"metadata": {"x": "' + b'\\"' * (128 * 1024)  # 256 KiB of escaped quotes, never closed
    assert scan(raw) == (2, 5)  # two objects, two keys, the string
    with pytest.raises(Rejected) as rejected:
        parse(raw)
    assert rejected.value.key == "grading.reason.invalid_json"


def test_millions_of_values_are_refused_before_any_parser_builds_them():
    """4 MiB of ``{}`` in the metadata took the grader to 1.9 GB in json and nbformat. Defence: scan's node budget."""
    from celerylab.grader.submission import MAX_NODES, Rejected, parse, scan

    notebook = good()
    notebook["metadata"]["x"] = "@@"
    raw = json.dumps(notebook).replace('"@@"', "[" + ",".join(["{}"] * (2 * 2**20)) + "]").encode()
    assert scan(raw)[1] > MAX_NODES
    with pytest.raises(Rejected) as rejected:
        parse(raw)
    assert rejected.value.key == "grading.reason.too_many_nodes"
    assert parse(json.dumps(good()).encode())["cells"]  # a real notebook is far below the budget
    braces_in_strings = json.dumps({**good(), "x": "{}," * 2**20}).encode()
    assert scan(braces_in_strings)[1] < 10_000  # brackets and commas inside strings are no values
