"""CL108/CL119: result_serializer = pickle with no result backend: no result is stored, nothing decodes one."""
from audit_apps.base import make_app

app = make_app("cl108nb", drop=("result_backend",), result_serializer="pickle", task_ignore_result=True)


@app.task(name="cl108nb.work")
def work():
    return 1
