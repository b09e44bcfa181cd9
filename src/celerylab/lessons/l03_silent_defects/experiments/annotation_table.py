"""The notes' fix, task_annotations, on a fresh app: the retry options of a task that declares none, and of one that
declares default_retry_delay=30 (annotations are applied when the app registers a task: no worker needed)."""
from dataclasses import dataclass

from celery import Celery

EVERY_TASK = {"*": {"max_retries": 3, "default_retry_delay": 60}}
CONFIGS = {
    "-": None,
    "task_max_retries, task_default_retry_delay": {"task_max_retries": 3, "task_default_retry_delay": 60},
    "task_annotations '*'": {"task_annotations": EVERY_TASK},
    "'*' + 'declared': 7": {"task_annotations": {"declared": {"default_retry_delay": 7}, **EVERY_TASK}},
}


@dataclass
class AnnotationTable:
    rows: dict[str, dict[str, tuple]]  # config -> task -> (max_retries, default_retry_delay)


def options_under(settings=None, **app_options) -> dict[str, tuple]:
    demo = Celery("demo", set_as_current=False, **app_options)
    demo.conf.update(settings or {})

    @demo.task(name="plain", shared=False)
    def plain(): ...

    @demo.task(name="declared", shared=False, default_retry_delay=30)
    def declared(): ...

    return {name: (demo.tasks[name].max_retries, demo.tasks[name].default_retry_delay)
            for name in ("plain", "declared")}


def annotation_table(configs: dict = CONFIGS) -> AnnotationTable:
    return AnnotationTable({label: options_under(settings) for label, settings in configs.items()})
