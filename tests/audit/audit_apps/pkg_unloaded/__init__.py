"""CL101 and a package's module the worker never imports: its Beat scheduler reads the project's own
CELERY_BEAT_TOUCH_FILE (Nautobot's CELERY_BEAT_HEARTBEAT_FILE), which is no stray key; CELERY_TASK_ACKS_LAT, read
by nobody, stays one."""
