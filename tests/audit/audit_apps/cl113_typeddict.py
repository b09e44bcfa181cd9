"""CL113 and TypedDicts: a TypedDict is a plain dict at run time (grafana/oncall's LabelOption), judged by its fields:
one of str and lists is carried, one holding a set is not."""
from __future__ import annotations

import typing

from audit_apps.base import make_app

app = make_app("cl113t")


class LabelKey(typing.TypedDict):
    id: str
    name: str


class LabelOption(typing.TypedDict):
    key: LabelKey
    values: typing.List[LabelKey]


class Tagged(typing.TypedDict):
    name: str
    tags: set


@app.task(name="cl113t.cache")
def cache(label_option: LabelOption, labels: typing.List[LabelOption] | LabelOption):
    return 1


@app.task(name="cl113t.tagged")
def tagged(item: Tagged):
    return 1
