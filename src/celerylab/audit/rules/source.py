"""Rules that read the user's files next to the loaded app: passwords committed in them, argument types JSON cannot carry."""
from __future__ import annotations

import dataclasses
import enum
import inspect
import os
import re
import typing
from urllib.parse import quote, unquote, urlsplit

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.sources import body, parameters, return_annotation
from celerylab.audit.usages import module_files
from celerylab.i18n import t

PLACEHOLDERS = {"", "pass", "password", "passwd", "secret", "changeme", "guest", "xxx"}


def password(url) -> str:
    if not isinstance(url, str) or "://" not in url:
        return ""
    try:
        return unquote(urlsplit(url.split(";")[0]).password or "")
    except ValueError:
        return ""


def written_at(text: str, secret: str) -> int | None:
    """Where the source writes the password: inside a URL (`user:secret@host`, as written or %-quoted) or as a
    string of its own (`PASSWORD = "secret"`); None when it is only a word of other text (doccano's password
    "doccano" in a comment's link to its own repository)."""
    spellings = {re.escape(secret), re.escape(quote(secret, safe=""))}
    written = [rf":(?:{each})@" for each in spellings] + [rf"(['\"])(?:{each})\1" for each in spellings]
    found = [match.start() for pattern in written for match in [re.search(pattern, text)] if match]
    return min(found) if found else None


@rule("CL112", "password-in-source", "critical", "defect")
def password_in_source(view):
    for setting in ("broker_url", "result_backend"):
        secret = password(view.conf.get(setting))
        if secret.lower() in PLACEHOLDERS:
            continue
        for path in module_files(view.user_modules):
            try:
                text = open(path, encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            at = written_at(text, secret)
            if at is not None:  # the finding names the file and line, never the password
                shown = os.path.relpath(path, view.loaded.folder or None)
                line = text[:at].count("\n") + 1
                yield Hit(setting, {"setting": setting, "file": f"{shown}:{line}"}, file=shown, line=line)
                break


# json fails at .delay() on these; a tuple arrives as a list.
REFUSED = (set, frozenset, bytearray, complex)


def pydantic_model(annotation) -> bool:
    return inspect.isclass(annotation) and any(cls.__name__ == "BaseModel" and cls.__module__.startswith("pydantic")
                                               for cls in annotation.__mro__)


def worst(results) -> str | None:
    return "fails" if "fails" in results else "changes" if "changes" in results else None


def outcome(annotation, seen: tuple = ()) -> str | None:
    """"fails" or "changes" for an annotation JSON (kombu's) cannot carry as it is; None when it can."""
    import datetime
    import decimal
    import uuid

    origin = typing.get_origin(annotation) or annotation
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return worst([outcome(arg, seen) for arg in typing.get_args(annotation)])
    if typing.is_typeddict(origin):  # a plain dict at run time (grafana/oncall's LabelOption): as its fields are
        if origin in seen:
            return None
        try:
            fields = typing.get_type_hints(origin)
        except Exception:  # a forward reference that does not resolve: the fields are not known
            return None
        return worst([outcome(field, (*seen, origin)) for field in fields.values()])
    if not inspect.isclass(origin):
        return None
    if origin in (str, int, float, bool, list, dict, type(None), bytes, datetime.datetime, datetime.date,
                  datetime.time, decimal.Decimal, uuid.UUID):
        return None
    if issubclass(origin, enum.Enum):
        return "changes" if issubclass(origin, (int, str)) else "fails"
    if issubclass(origin, tuple):
        return "changes"
    if issubclass(origin, REFUSED) or dataclasses.is_dataclass(origin) or issubclass(origin, datetime.timedelta):
        return "fails"
    if origin.__module__ in ("builtins", "typing", "collections.abc"):
        return None
    return "fails"  # a class of the project's own: json.dumps raises TypeError, kombu's EncodeError


ID_KEYWORDS = ("id", "pk")
CASTS = {"int", "str", "float", "UUID"}


def treated_as_id(found, parameter: str) -> bool:
    """The body uses `parameter` as the plain value callers really send (`Model.objects.get(pk=user)`, `int(user)`):
    the code contradicts an annotation that says otherwise."""
    import ast

    def is_it(node) -> bool:
        return isinstance(node, ast.Name) and node.id == parameter

    for node in ast.walk(found.node) if found else ():
        if isinstance(node, ast.keyword) and node.arg and is_it(node.value) and \
                (node.arg in ID_KEYWORDS or node.arg.endswith(("_id", "__id", "_pk", "__pk", "__in"))):
            return True
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in CASTS and any(map(is_it, node.args)):
            return True
    return False


@rule("CL113", "json-unsafe-argument", "medium", "defect")
def json_unsafe_argument(view):
    if "json" not in str(view.conf.task_serializer).lower():
        return
    for name, task in view.user_tasks.items():
        pydantic = getattr(task, "_dump_pydantic_arguments", None) is not None  # @app.task(pydantic=True) dumps models
        found = body(task)
        for parameter, annotation in parameters(task).items():
            if parameter in ("self",):
                continue
            result = None if pydantic and pydantic_model(annotation) or treated_as_id(found, parameter) \
                else outcome(annotation)
            if result:
                yield Hit(f"{name}({parameter})", {"task": name, "parameter": parameter, "annotation": label(annotation),
                                                   "outcome": t(f"audit.CL113.{result}")})
        returned = return_annotation(task)
        result = outcome(returned) if returned is not None and not (pydantic and pydantic_model(returned)) else None
        if result and view.backend_scheme and not task.ignore_result and "json" in str(view.conf.result_serializer):
            yield Hit(f"{name}(return)", {"task": name, "annotation": label(returned),
                                          "outcome": t(f"audit.CL113.returned_{result}")}, message="returns")


def label(annotation) -> str:
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
