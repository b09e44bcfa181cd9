"""CL301: autoretry_for=(Exception,)."""
from audit_apps.base import make_app

app = make_app("cl301")


@app.task(name="cl301.welcome", autoretry_for=(Exception,), retry_backoff=True, max_retries=2)
def welcome(address: str):
    return address


@app.task(name="cl301.once", autoretry_for=(Exception,), retry_backoff=True, max_retries=0)
def once(address: str):
    """max_retries=0 (grafana/oncall's 11 such tasks): the first failure is final, autoretry_for retries nothing."""
    return address


@app.task(name="cl301.index_once", autoretry_for=(Exception,), retry_backoff=5, max_retries=1)
def index_once(item_id: int):
    """One retry 5 s later (hypothesis/h's indexer tasks): a permanent error fails on the second try; undecided."""
    return item_id


@app.task(name="cl301.once_late", autoretry_for=(Exception,), retry_backoff=300, max_retries=1)
def once_late(address: str):
    """One retry, but 5 minutes later: a permanent error is hidden that long, still a defect."""
    return address
