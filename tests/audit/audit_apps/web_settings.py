"""A web framework's settings module with nothing for Celery in it (the Celery settings went elsewhere)."""
DEBUG = True
INSTALLED_APPS = ["shop"]
BROKER = "redis://localhost:6379/0"
