"""What went wrong in the learner's code, said where they can fix it: their cell and line, the task's exception."""
from __future__ import annotations

from pathlib import Path

from celerylab import robust_parse
from celerylab.checks.extract import writefile_target
from celerylab.i18n import t


def describe_exception(error: BaseException) -> str:
    """``IntegrityError: UNIQUE constraint failed: invoices.order_id`` (one line, as the task raised it)."""
    text = " ".join(str(error).split())
    name = type(error).__name__  # Celery rebuilds a task's exception under its own class name
    return f"{name}: {text}" if text else name


def writer_cell(notebook: str | Path, filename: str) -> int | None:
    """The 1-based position of the ``%%writefile filename`` cell in `notebook` (counting every cell), or None."""
    import nbformat

    try:
        cells = nbformat.read(str(notebook), as_version=4).cells
    except Exception:  # an unreadable notebook only costs the cell number
        return None
    for number, cell in enumerate(cells, start=1):
        target = writefile_target(cell.source) if cell.cell_type == "code" else None
        if target and Path(target[0]).name == filename:
            return number
    return None


def notebooks_writing(folder: Path, filename: str) -> list[Path]:
    return [path for path in sorted(folder.glob("*.ipynb")) if writer_cell(path, filename)]


def syntax_problem(module: Path, notebook: str | Path | None = None) -> str | None:
    """None when `module` compiles; else one message naming the answer cell and its line (the cell's line 1 is
    ``%%writefile``), the error and the offending text, instead of a worker's import traceback."""
    try:
        source = module.read_bytes()
        robust_parse.robust(compile, source, module.name, "exec", dont_inherit=True)
        return None
    except SyntaxError as error:
        line, message, text = error.lineno or 1, error.msg, (error.text or "").rstrip()
    except ValueError as error:  # e.g. a null byte
        line, message, text = 1, str(error), ""
    candidates = [Path(notebook)] if notebook else notebooks_writing(module.parent, module.name)
    cell = next((number for path in candidates if (number := writer_cell(path, module.name))), None)
    where = t("check.syntax_cell", module=module.name, cell=cell, line=line + 1) if cell else \
        t("check.syntax_file", module=module.name, line=line + 1)
    lines = [t("check.syntax", where=where, message=message)]
    if text:
        lines.append(f"        {text.strip()}")
    return "\n".join(lines)
