"""CL113 against the code: an annotation the body contradicts (the parameter is used as an id) is not trusted; one the
body uses as the object stays flagged."""
from audit_apps.base import make_app

app = make_app("cl113c")


class User:
    objects = None


@app.task(name="cl113c.by_pk")
def by_pk(user: User):
    """Callers send user.pk: the body looks it up (the annotation is wrong, the call is fine)."""
    return User.objects.get(pk=user)


@app.task(name="cl113c.by_cast")
def by_cast(user: User):
    return int(user)


@app.task(name="cl113c.as_object")
def as_object(user: User):
    return user.name
