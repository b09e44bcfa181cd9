"""celerylab: an interactive, bilingual course on running Celery in production."""
__version__ = "0.1.0"
