"""`reached` reads each package module once per version of the file: an edited module is read again."""
from __future__ import annotations

import os

from celerylab.compiler.imports import reached


def test_an_edited_module_is_read_again(tmp_path):
    package = tmp_path / "celerylab"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "b.py").write_text("", encoding="utf-8")
    (package / "c.py").write_text("", encoding="utf-8")
    first = package / "a.py"
    first.write_text("import celerylab.b\n", encoding="utf-8")
    assert [path.name for path in reached({"celerylab.a"}, package)] == ["__init__.py", "a.py", "b.py"]
    assert [path.name for path in reached({"celerylab.a"}, package)] == ["__init__.py", "a.py", "b.py"]
    first.write_text("import celerylab.c\n", encoding="utf-8")  # same size: the modification time tells
    stat = first.stat()
    os.utime(first, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert [path.name for path in reached({"celerylab.a"}, package)] == ["__init__.py", "a.py", "c.py"]
