"""A FastAPI app served by the stack (uvicorn): a route that hands the user object to .delay(), one that sends the id."""
from dataclasses import dataclass

import httpx

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.stack import Stack

API = "celerylab.lessons.l03_silent_defects.api:api"  # describe.delay(USERS[user_id]) / describe.delay(user_id)
PATHS = ("/users/5/describe-object", "/users/5/describe-id")


@dataclass
class HttpRoutes:
    statuses: dict[str, int]  # path -> the HTTP status the route answered
    logged: list[str]         # the server's log from the EncodeError on


def http_routes(stack: Stack) -> HttpRoutes:
    web = stack.add_http_app("api", API)
    offset = web.log_offset()
    statuses = {}
    for path in PATHS:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            statuses[path] = http.post(path).status_code
    return HttpRoutes(statuses, helpers.log_after(web, r"^kombu\.exceptions\.EncodeError", offset))
