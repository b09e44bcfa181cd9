"""Sets the export route only in a celeryd_init handler: a producer importing the module still sends l06.long to 'default', where the short tasks starve behind it. Violates: "asks your app which queue each task goes to, with the arguments it is sent with (its routes, in a producer process of its own that imports your module, as the API that sends the tasks does, which runs no worker and none of its signals)". Blind review.

Routes set only inside the worker (celeryd_init), so a producer importing this module still sends l06.long to 'default'.

A producer (the API) that imports ex_deploy never fires celeryd_init: its app keeps ROUTES only, l06.long lands on
'default' and the short tasks starve behind it again. Only worker processes (forked from the main one) see the route.
Violates: "asks your app which queue each task goes to, with the arguments it is sent with (its routes, as a producer with the same module would)".
"""
from celery.signals import celeryd_init

from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.worker_prefetch_multiplier = 1
WORKERS = [["long"], ["default"]]


@celeryd_init.connect
def configure_workers(sender=None, conf=None, **kwargs):
    # per-worker configuration, as Celery's docs show for celeryd_init
    conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
