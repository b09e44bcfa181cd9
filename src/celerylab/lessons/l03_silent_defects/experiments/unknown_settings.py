"""The app's keys that are no Celery setting, with the closest setting name and whether Task has that attribute."""
from dataclasses import dataclass
from difflib import get_close_matches

from celery import Task
from celery.app.defaults import _OLD_SETTING_KEYS, SETTING_KEYS

from celerylab.lessons.l03_silent_defects import tasks

KNOWN = SETTING_KEYS | _OLD_SETTING_KEYS | {"deprecated_settings"}  # Celery stores this one itself
TYPOS = ("task_acks_lat", "result_expire", "broker_visibility_timeout")


@dataclass
class UnknownSettings:
    unknown: list[dict]  # each unknown key of the app: key, closest, task_attribute
    setting_names: int   # how many names SETTING_KEYS holds
    typos: list[dict]    # keys no app here has: key, closest


def closest(key: str) -> str:
    return (get_close_matches(key, sorted(SETTING_KEYS), n=1) or ["-"])[0]


def unknown_settings(conf=tasks.app.conf) -> UnknownSettings:
    unknown = [{"key": key, "closest": closest(key), "task_attribute": hasattr(Task, key.removeprefix("task_"))}
               for key in sorted(set(conf.keys()) - KNOWN)]
    return UnknownSettings(unknown, len(SETTING_KEYS),
                           [{"key": key, "closest": closest(key), "task_attribute": "-"} for key in TYPOS])
