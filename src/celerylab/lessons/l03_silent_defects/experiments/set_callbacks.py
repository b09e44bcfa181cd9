"""What comes after a task that returns a set, in a chain or a link, made with .s() (gets the result) or .si()."""
from dataclasses import dataclass

from celery import chain

from celerylab.lessons.l03_silent_defects import helpers, tasks, views
from celerylab.stack import Stack


@dataclass
class SetCallbacks:
    # "chain .s()", "link .s()", "chain .si()", "link .si()" -> the parent's outcome, whether the worker
    # received l03.after, and l03.after's state after up to 3 s
    rows: dict[str, dict]


def set_callbacks(stack: Stack, worker) -> SetCallbacks:
    sent = {}
    for kind, make in (("s", tasks.after.s), ("si", tasks.after.si)):
        last = chain(tasks.returns.s("set"), make()).apply_async()
        sent[f"chain .{kind}()"] = (last.parent, last.id)
        callback = make()
        callback.freeze()  # gives it its id before it is sent
        sent[f"link .{kind}()"] = (tasks.returns.apply_async(("set",), link=callback), callback.id)
    for parent, _ in sent.values():
        parent.get(timeout=10, propagate=False)
    return SetCallbacks({label: {"parent": views.outcome(parent),
                                 "after_received": f"l03.after[{after_id}] received" in worker.logs,
                                 "after": helpers.wait_state(stack.app.AsyncResult(after_id), ("SUCCESS",), 3)}
                         for label, (parent, after_id) in sent.items()})
