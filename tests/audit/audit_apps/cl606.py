"""CL606: Beat entries whose args or kwargs do not fit the task (one bound task with fitting args is fine)."""
from audit_apps.base import make_app

app = make_app("cl606", beat_schedule={
    "too-many": {"task": "cl606.remind", "schedule": 60.0, "args": (1, 2), "options": {"expires": 30}},
    "wrong-keyword": {"task": "cl606.remind", "schedule": 60.0, "kwargs": {"userid": 1},
                      "options": {"expires": 30}},
    "fits": {"task": "cl606.bound", "schedule": 60.0, "args": (7,), "options": {"expires": 30}},
})


@app.task(name="cl606.remind")
def remind(user_id):
    return user_id


@app.task(name="cl606.bound", bind=True)
def bound(self, user_id):
    return user_id
