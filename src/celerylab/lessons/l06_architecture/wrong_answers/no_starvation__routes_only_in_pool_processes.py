"""Sets the export route in a worker_process_init handler: only pool processes route l06.long to 'long'; a producer importing the module still sends it to 'default'. Violates: "asks your app which queue each task goes to, with the arguments it is sent with (its routes, in a producer process of its own that imports your module, as the API that sends the tasks does, which runs no worker and none of its signals)". Blind review.

Routes set in a worker_process_init handler: only the workers' pool processes route l06.long to 'long'; the API (a producer importing this module) still sends it to 'default'.

Violates: "asks your app which queue each task goes to, with the arguments it is sent with (its routes, as a producer with the same module would)".
"""
from celery.signals import worker_process_init

from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.worker_prefetch_multiplier = 1
WORKERS = [["long"], ["default"]]


@worker_process_init.connect
def configure_pool_process(**kwargs):
    app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
