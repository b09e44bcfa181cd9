"""Solution / stub stripping keeps one region's lines and drops every marker."""
from __future__ import annotations

from celerylab.compiler.markers import has_markers, keep_region

CELL = """%%writefile ex.py
def double(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION
    ### BEGIN STUB
    return x  # the bug
    ### END STUB
print("end")"""


def test_solution_variant_keeps_solutions_only():
    assert keep_region(CELL, "SOLUTION") == '%%writefile ex.py\ndef double(x):\n    return 2 * x\nprint("end")'


def test_exercise_variant_keeps_stubs_only():
    assert keep_region(CELL, "STUB") == '%%writefile ex.py\ndef double(x):\n    return x  # the bug\nprint("end")'
    assert not has_markers(keep_region(CELL, "STUB")) and has_markers(CELL)


def test_cells_without_markers_are_untouched():
    assert keep_region("x = 1\n\ny = 2", "STUB") == "x = 1\n\ny = 2"
