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
    """A single retry (hypothesis/h's indexer tasks): a permanent error ends in FAILURE on the second try; undecided."""
    return item_id

