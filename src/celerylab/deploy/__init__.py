"""The production-shaped Celery app the docker-compose services run."""
