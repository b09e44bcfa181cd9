"""Beat's scheduler: touches the file CELERY_BEAT_TOUCH_FILE names on every tick (a worker never imports this)."""
from pathlib import Path

from celery.beat import PersistentScheduler

from audit_apps.pkg_unloaded import settings


class TouchingScheduler(PersistentScheduler):
    def tick(self, *args, **kwargs):
        Path(settings.CELERY_BEAT_TOUCH_FILE).touch(exist_ok=True)
        return super().tick(*args, **kwargs)
