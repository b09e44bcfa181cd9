"""`celerylab audit`: the course's silent defects, looked for in a learner's own Celery app as Celery loads it."""
