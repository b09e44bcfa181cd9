"""CL501 on the project's own result backend (Nautobot's JobResult rows, its job history): result_expires=None
is its retention, removed by its own code if at all, so the rule cannot decide; a library's backend stays a defect."""
from celery.backends.cache import CacheBackend

from audit_apps.base import make_app


class JobHistoryBackend(CacheBackend):
    """The project's own backend: what keeps or removes its results is this code, not result_expires."""

    def __init__(self, app, url=None, **options):
        super().__init__(app, backend="memory", **options)


app = make_app("cl501own", result_backend="audit_apps.cl501_own:JobHistoryBackend", result_expires=None)


@app.task(name="cl501own.work")
def work():
    return 1
