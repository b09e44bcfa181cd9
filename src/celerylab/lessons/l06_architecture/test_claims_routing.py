"""Where a message goes when the decorator names a queue and `task_routes` another (published to memory://, no process)."""
from __future__ import annotations

from celerylab.lessons.l06_architecture.experiments.decorator_routes import decorator_routes


def test_a_decorator_queue_prevails_over_task_routes_for_the_task_object(observe):
    sent = decorator_routes()
    observe.equal(delay=(sent["delay"], "heavy"),  # the decorator's queue, over task_routes' priority
                  # by name, without the task's code: task_routes
                  send_task_other_producer=(sent["send_task_other_producer"], "priority"),
                  apply_async_queue=(sent["apply_async_queue"], "default"),  # the call's queue= over both
                  send_task_same_app=(sent["send_task_same_app"], "heavy"))  # since Celery 5.7 (5.5 and 5.6: priority)
