"""Lesson 04's exercise checks: the learner's status endpoint over HTTP, and a report that stops when asked."""
from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
from celery import states

from celerylab import appdb, atomic, polling
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l04_results import check_cancel_at, held_reads, helpers, jobs
from celerylab.stack import WorkerSpec
from celerylab.stack.errors import ServiceError

WELCOME = {"status": "sent", "to": "bia@example.com"}
CANCELLED_WITHIN = 1.0  # seconds from the cancel request to the row in "cancelled" (the statement's bound)
FREED_WITHIN = 2.0  # seconds from the cancel request to the start of a job queued behind the report (the statement's)
HIDDEN_CANCELS = ((8, 0.15, 1), (30, 0.05, 9), (120, 0.05, 13), (5, 0.3, 4), (6, 0.6, 1), (6, 0.6, 2), (6, 0.6, 3),
                  (10, 0.25, 0),  # page 0: the request arrives as the task is picked up, before its first look
                  (1, 0.3, 1),  # a one-student report, cancelled inside its only (and last) page
                  (60, 0.01, 20),  # pages of 10 ms: a flag kept 0.2 s in memory lets some 20 pages begin after it
                  (130, 0.25, 127))  # past 120 pages, in the last 10 of a long report, 31.75 s after it began
LONG_CANCEL = 4.0  # seconds: a request due later than this after the report is sent waits for its page at 50 Hz first
LATE_CANCELS = ((10, 0.25, 9), (8, 0.3, 7))  # hidden: a request in the last moments of the page before the last one
HOOKED_CANCELS = ((12, 0.05, 7), (5, 0.05, 5))  # hidden: a request flagged by the worker itself as the report writes
# page 7's progress (pages too short for a look inside one: the next page must not begin) and the last page's (the look
# after the last page is what sees it), whatever the machine's load (`check_cancel_at`)
HOOK = "celerylab.lessons.l04_results.check_cancel_at"
HOOK_FILE = "cancel_at"  # in the stack's folder: `<job id> <page>`, the page whose progress write flags the row
LATE_ATTEMPTS = 3
LATE = 0.015  # seconds before the page's end (by the check's read before it began) that a late request is flagged,
# twice that at a second attempt, three times at a third
UNCANCELLED = ((4, 0.25), (6, 0.04), (3, 0.6), (2, 0.8))  # hidden: the default step, a small one, the slowest that
# is cancelled, and one above it (a report is not cancelled within 1 s at such a step, but its pages still last `step`)
CANCEL_CRITERIA, UNCANCELLED_CRITERIA = 7, 2  # criteria each case records
PAGE_CLOCK = 0.01  # seconds: the database clock's resolution (ms) with room; a page that sleeps `step` never needs it
PAGE_SLACK = 0.1  # seconds the shortest page may last past `step`: its writes and its look at the flag (measured up
# to 0.03 s with three checks at once on 2 cores; the median, up to 0.15 s in a 3-page report on a loaded machine)
PAGE_EDGE = 0.05  # seconds: a stop this close to a page's `step` may count that page either way (the task times its page
# by its own clock, the check by the database's, at writes that take a few ms)
PAGE_STALL = 1.5  # seconds any page may last past `step`: a loaded 2-core machine stalls a page now and then (measured
# up to 0.55 s in a 120-page report, two checks at once)
REFERENCE = "l04.report"  # the lesson's own report (the code given: no look at the flag), timed beside a slow answer
REFERENCE_PAGES = 3
PROGRESS = "PROGRESS"  # the state the report stores for each page (a state of its own: Celery has no such constant)
PROGRESS_LOG = ("CREATE TABLE IF NOT EXISTS check_progress_log"
                " (job_id TEXT, progress INTEGER, state TEXT, at DOUBLE PRECISION)")
SQLITE_TRIGGER = ("CREATE TRIGGER IF NOT EXISTS check_progress_log AFTER UPDATE ON jobs BEGIN"
                  " INSERT INTO check_progress_log (job_id, progress, state, at)"
                  " VALUES (new.id, new.progress, new.state, (julianday('now') - 2440587.5) * 86400.0); END")
POSTGRES_TRIGGER = [
    "CREATE OR REPLACE FUNCTION check_progress_log() RETURNS trigger AS $$ BEGIN"
    " INSERT INTO check_progress_log (job_id, progress, state, at)"
    " VALUES (NEW.id, NEW.progress, NEW.state, extract(epoch FROM clock_timestamp())); RETURN NEW; END"
    " $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS check_progress_log ON jobs",
    "CREATE TRIGGER check_progress_log AFTER UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION check_progress_log()",
]


def answer(http, job_id: str, finish_during: bool = False) -> tuple[int, dict]:
    """(HTTP status, JSON body or {}) of GET /jobs/{id}; a body that is not JSON reads as {}. `finish_during`: the
    job finishes while the route answers, right after the route's first look at its unfinished result."""
    headers = {held_reads.HEADER: job_id} if finish_during else {}
    response = http.get(f"/jobs/{job_id}", headers=headers)
    try:
        body = response.json()
    except ValueError:
        body = {}
    return response.status_code, body if isinstance(body, dict) else {}


def first(http, job_id: str, wanted, timeout: float) -> dict:
    """The first body for which `wanted(body)` holds, polling until `timeout`; else the last body seen."""
    return polling.read_until(lambda: answer(http, job_id)[1], wanted, timeout, step=0.05)


def unknown_ids(run: CheckRun, stack, http) -> bool:
    """404 for an invented id; hidden: a malformed one, and a task that ran but that the application never issued."""
    cases = [(str(uuid.uuid4()), False)]
    if run.graded(2):
        outside = stack.app.send_task("l04.double", (21,))  # sent outside the API: no row
        outside.get(timeout=10)
        cases += [("not-a-job", True), (outside.id, True)]
    return all(run.expect("l04.check.unknown", 404, answer(http, job_id)[0], hidden=hidden) for job_id, hidden in cases)


def finished_while_answering(run: CheckRun, stack, http) -> bool:
    """A bulk send (countdown 1 s) asked about once, and it finishes while the route answers: between the route's
    first read of it (its row or its result) and its next read. The whole answer, [status, result, progress,
    expired], must be one state the job had, as the check's own reads of its row show them: queued or running
    with the row's first progress and no result, or done with the finished row's result and progress; never
    "expired", which it was not. A route that reads the backend before the row saw no result, then a finished
    row, and took the two for an expiry; one that reads the row twice mixes the first read's status with the
    second's result."""
    bulk = http.post("/emails/bulk", params={"countdown": 1}, json=["a@example.com"]).json()["task_id"]
    issued = helpers.row(stack, bulk)  # as the route found it first: queued, before the countdown ends
    body = answer(http, bulk, finish_during=True)[1]
    done = finished_row(stack, bulk, 5)
    had = [[state, None, issued["progress"], False] for state in ("queued", "running")]
    had.append(["done", done["result"], done["progress"], False])
    progress = body.get("progress")
    seen = [body.get("status"), body.get("result"), issued["progress"] if progress is None else progress,
            body.get("expired")]  # no progress at all reads as the row's first one: a bulk send writes none
    return run.expect("l04.check.in_flight", had, seen, passed=seen in had)


def done_then_expired(run: CheckRun, stack, http) -> bool:
    """A welcome read once done, then after the backend forgot; hidden: one first read only after it forgot."""
    welcome = http.post("/users", json={"name": "Bia", "email": WELCOME["to"]}).json()["task_id"]
    body = first(http, welcome, lambda b: b.get("status") == "done", 4)
    if not run.expect("l04.check.done", ["done", WELCOME, False],
                      [body.get("status"), body.get("result"), body.get("expired")]):
        return False
    body = first(http, welcome, lambda b: b.get("expired") is True, helpers.RESULT_EXPIRES + 3)
    if not run.expect("l04.check.expired", ["done", WELCOME, True],
                      [body.get("status"), body.get("result"), body.get("expired")]):
        return False
    if run.graded(1):
        unread = http.post("/users", json={"name": "Bia", "email": WELCOME["to"]}).json()["task_id"]
        key, redis = helpers.result_key(stack, unread), helpers.redis_client(stack)
        helpers.until(lambda: redis.exists(key), 5)
        helpers.until(lambda: not redis.exists(key), helpers.RESULT_EXPIRES + 3)  # nobody asked while it was there
        body = answer(http, unread)[1]
        return run.expect("l04.check.expired", ["done", WELCOME, True],
                          [body.get("status"), body.get("result"), body.get("expired")], hidden=True)
    return True


def running_past_the_backend(run: CheckRun, stack, http) -> bool:
    """Hidden: a report whose pages last longer than `result_expires`, asked about once the backend forgot its
    PROGRESS between two pages: still running with its progress, which the row keeps and the backend no longer
    has."""
    step = helpers.RESULT_EXPIRES + 1.5
    report = http.post("/reports", json={"student_ids": [1, 2], "period": "p", "step": step}).json()["task_id"]
    key, redis = helpers.result_key(stack, report), helpers.redis_client(stack)
    helpers.until(lambda: redis.exists(key), 5)
    helpers.until(lambda: not redis.exists(key), helpers.RESULT_EXPIRES + 3)  # page 1 runs on, its PROGRESS gone
    body = answer(http, report)[1]
    return run.expect("l04.check.running", ["running", True, False],
                      [body.get("status"), (body.get("progress") or 0) >= 1, body.get("expired")], hidden=True)


@exercise("l04.job_status")
def job_status(run: CheckRun) -> None:
    """Unknown, queued, finished while answering, running (a report with progress, a bulk send without), done,
    expired; hidden: a report running after the backend forgot its progress. The first failed requirement ends
    the check."""
    with run.stack(helpers.SPEC, http_apps={"shop": f"{held_reads.__name__}:api"},
                   env={held_reads.ANSWER_ENV: run.module}) as stack:
        http = helpers.client(stack)
        if not unknown_ids(run, stack, http):
            return
        bulk = http.post("/emails/bulk", params={"countdown": 3}, json=["a@example.com"]).json()["task_id"]
        queued = answer(http, bulk)[1]
        if not run.expect("l04.check.queued", ["queued", False], [queued.get("status"), queued.get("expired")]):
            return
        if not finished_while_answering(run, stack, http):
            return
        report = http.post("/reports", json={"student_ids": [1, 2, 3, 4, 5, 6], "period": "p",
                                             "step": 0.25}).json()["task_id"]
        body = first(http, report, lambda b: b.get("status") == "running" and (b.get("progress") or 0) >= 1, 4)
        if not run.expect("l04.check.running", ["running", True, False],
                          [body.get("status"), (body.get("progress") or 0) >= 1, body.get("expired")]):
            return
        long_bulk = http.post("/emails/bulk", params={"countdown": 0},
                              json=[f"u{n}@example.com" for n in range(60)]).json()["task_id"]
        helpers.until(lambda: (helpers.row(stack, long_bulk) or {}).get("state") == "running", 8)
        body = answer(http, long_bulk)[1]
        if not run.expect("l04.check.running_bulk", ["running", False], [body.get("status"), body.get("expired")]):
            return
        if not done_then_expired(run, stack, http):
            return
        if run.graded(1):
            running_past_the_backend(run, stack, http)


def send_report(stack, students: int, step: float, job_id: str | None = None, flagged: bool = False,
                task: str = "ex.report") -> str:
    """Enqueue ex.report the way the shop does: the row first, then the message with the row's id; `flagged`: the
    row flagged for cancelling before the message is sent (a request whose revoke comes too late to discard it)."""
    job_id = job_id or str(uuid.uuid4())
    connection = stack.db()
    try:
        jobs.create(job_id, "admin", task, connection)
        if flagged:
            jobs.request_cancel(job_id, connection)
    finally:
        connection.close()
    args = (list(range(1, students + 1)), "p", step) if task == REFERENCE else (list(range(1, students + 1)), step)
    stack.app.send_task(task, args, task_id=job_id)
    return job_id


def finished_row(stack, job_id: str, timeout: float) -> dict:
    """The job's row once its state is final (or as it is when `timeout` ends)."""
    return helpers.until(lambda: (lambda j: j if j["state"] in jobs.FINISHED else None)(helpers.row(stack, job_id)),
                         timeout) or helpers.row(stack, job_id)


def page_begun(stack, job_id: str, at: int, step: float) -> float | None:
    """Return as soon as page `at` has begun: the PROGRESS the report stores at each page's start, read from the
    backend every 5 ms (a request sent then, after a pause of half a page up to 50 ms, lands early in that page,
    after its look at the flag and its progress, the moment that shows an answer that looks only every third
    page), else the row's progress. Returns when the last read that still saw an earlier page began: page `at`
    began after it, so a report that looks at the flag before each page looks again no sooner than a step later
    (None when no read saw an earlier page). A page due more than LONG_CANCEL after the report was sent is waited
    for at 50 Hz until the page before it has begun (or the report has ended), then read as any other."""
    if at * step > LONG_CANCEL:
        def near() -> bool:
            job = helpers.row(stack, job_id) or {}
            return (job.get("state") in jobs.FINISHED
                    or max(stored_page(stack, job_id), job.get("progress") or 0) >= at - 1)

        helpers.until(near, at * (step + PAGE_SLACK) + 10)

    def first_read(read, timeout: float) -> tuple[bool, float | None]:
        earlier = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reading = time.monotonic()
            if read() >= at:
                return True, earlier
            earlier = reading
            time.sleep(0.005)
        return False, None

    seen, earlier = first_read(lambda: stored_page(stack, job_id), 5)
    if seen:
        return earlier
    return first_read(lambda: (helpers.row(stack, job_id) or {}).get("progress") or 0, 5)[1]


def stored_meta(stack, payload) -> dict:
    """A stored state as the answer wrote it: decoded, not turned into an exception (an exception state whose value
    is not exception information, such as a REVOKED stored with a dict, reads as that dict)."""
    meta = stack.app.backend.decode(payload) if payload is not None else None
    return meta if isinstance(meta, dict) else {}


def stored_page(stack, job_id: str) -> int:
    """The page the report is on by the PROGRESS it stores as each page begins (0 once it has ended)."""
    meta = stored_meta(stack, stack.app.backend.get(helpers.result_key(stack, job_id)))  # the backend's connection
    info = meta.get("result") if meta.get("status") not in states.READY_STATES else None
    return int(info.get("current") or 0) if isinstance(info, dict) else 0


def request_cancel(stack, http, job_id: str, connection=None) -> tuple[int, float]:
    """Flag the row in one statement that also returns its progress, then POST the API's cancel route (which flags
    it again and revokes): the page the report was on when the request arrived is taken in this process, at the
    very moment the flag is set (with the PROGRESS stored just before it), never read back once the report could
    have reacted. A report that looks at the flag before every page begins none after it, so its row's progress
    must end at that page (or at `at`, the page the check saw begin, if further): neither above it (a page begun
    after the request, as when the flag is read after writing a page's progress) nor below it (progress rewritten
    on cancel). Also returns the moment the flag was set, at the latest. `connection`: one opened beforehand (a
    late request, whose flag must not wait for a connection to open on a loaded machine)."""
    connection = connection or stack.db()
    try:
        before = stored_page(stack, job_id)
        rows = appdb.execute(connection, "UPDATE jobs SET cancel_requested = 1 WHERE id = ? RETURNING progress",
                             (job_id,)).fetchall()  # every row fetched: the statement, and its commit, complete
        flagged = time.monotonic()
    finally:
        connection.close()
    http.post(f"/jobs/{job_id}/cancel")
    return max([before, *(int(progress or 0) for (progress,) in rows)]), flagged


def hooked_request(stack, job_id: str, request: Path, timeout: float) -> float:
    """Wait for the worker to flag the job as it writes the requested page's progress (`check_cancel_at`); the moment
    it did (the monotonic clock this process shares with the worker). A report that never writes that page's
    progress to its row (ended, or stuck) is flagged here once its row has ended or `timeout` has passed."""
    flagged = Path(f"{request}{check_cancel_at.FLAGGED_SUFFIX}")
    reads = iter(range(1 << 30))

    def moment() -> float | None:
        try:
            return float(flagged.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):  # the row read every 20th time (0.1 s): the file is the fast path
            ended = next(reads) % 20 == 19 and (helpers.row(stack, job_id) or {}).get("state") in jobs.FINISHED
            return -1.0 if ended else None

    at = polling.until(moment, timeout, step=0.005)
    flagged.unlink(missing_ok=True)
    if at is None or at < 0:
        connection = stack.db()
        try:
            jobs.request_cancel(job_id, connection)
        finally:
            connection.close()
        return time.monotonic()
    return at


def first_look(request: Path, progress: int) -> float | None:
    """How long after writing page `progress`'s progress the report began the look that first found the flag, by its
    own clock (`check_cancel_at`); None when that look came on another page or was not seen. Ends the watch."""
    look = Path(f"{request}{check_cancel_at.LOOK_SUFFIX}")
    try:
        page, seconds = look.read_text(encoding="utf-8").split()
        return float(seconds) if int(page) == progress else None
    except (OSError, ValueError):
        return None
    finally:
        request.unlink(missing_ok=True)
        look.unlink(missing_ok=True)


def log_progress_writes(stack) -> None:
    """Record every write to the jobs table as it happens, with its progress, its state and the database's clock (a
    trigger into a table of the check's own): a page that begins, even if its progress is rolled back right after,
    stays on record, and so does the moment each page began."""
    connection = stack.db()
    try:
        appdb.execute(connection, PROGRESS_LOG)
        for sql in [SQLITE_TRIGGER] if appdb.kind(stack.database_url) == "sqlite" else POSTGRES_TRIGGER:
            appdb.execute(connection, sql)
    finally:
        connection.close()


class ProgressSeen:
    """Every page a report began, as it began: each progress written to its row (the trigger's record) and each
    PROGRESS it published to the result backend (the backend publishes every state it stores on the result key's
    channel; the check subscribes before the report is sent), not only the progress left once it has ended.
    Also what the backend held as the report's outcome, however soon it forgets it: every state the report stored
    but PROGRESS (its SUCCESS, a state of its own stored with update_state or store_result, anything else), and the
    last state it stored (with Ignore, which stores no result, its last PROGRESS), as [state, result] pairs."""

    def __init__(self, stack, job_id: str) -> None:
        self.stack, self.job_id = stack, job_id
        self.returned: list = []  # [state, result] of every state stored but PROGRESS, in order
        self.last: list | None = None  # [state, result] of the last state stored
        self.pubsub = helpers.redis_client(stack).pubsub()
        self.pubsub.subscribe(helpers.result_key(stack, job_id))
        confirmed = self.pubsub.get_message(timeout=5)  # subscribed before the report is sent: nothing missed
        if confirmed is None or confirmed["type"] != "subscribe":
            self.pubsub.close()
            raise ServiceError("l04.check.backend_channel", channel=helpers.result_key(stack, job_id),
                               answer=confirmed)

    def published(self) -> int:
        """The highest page the report published as PROGRESS (0 when none), keeping in `returned` every other state
        it stored and in `last` the last one; ends the subscription."""
        highest = 0
        try:
            while (message := self.pubsub.get_message(timeout=0.2)) is not None:
                if message["type"] != "message":
                    continue
                meta = stored_meta(self.stack, message["data"])
                info = meta.get("result")
                self.last = [meta.get("status"), info]
                if meta.get("status") not in (PROGRESS, states.STARTED):
                    self.returned.append(self.last)
                if meta.get("status") not in states.READY_STATES and isinstance(info, dict):
                    highest = max(highest, int(info.get("current") or 0))
        finally:
            self.pubsub.close()
        return highest

    def written(self) -> int:
        """The highest progress ever written to the report's row (0 when none)."""
        connection = self.stack.db()
        try:
            return int(appdb.scalar(connection, "SELECT MAX(progress) FROM check_progress_log WHERE job_id = ?",
                                    (self.job_id,)) or 0)
        finally:
            connection.close()

    def highest(self) -> int:
        return max(self.published(), self.written())

    def outcome(self) -> list:
        """What the backend held as the report's outcome (once `published` has run): every state it stored but
        PROGRESS, then its last state if that is a PROGRESS (an Ignore leaves it there)."""
        last = [self.last] if self.last is not None and self.last[0] == PROGRESS else []
        return self.returned + last


def pages_done(progress: int, lasted: float | None, step: float, late: bool = False,
               looked: float | None = None) -> list[int]:
    """The counts a cancelled report may give as the pages it did, by how long its last page lasted before its row
    turned cancelled (`stopped_inside`): after a whole page (`step` or more, or no page at all), its final progress,
    unless the look that found the flag began inside that page (`looked`, by the task's own clock, under `step`):
    then either (it may have stopped there, its writes slowed by a loaded machine, or finished its page); turned
    inside it, one fewer (that page was not done: giving it as done counts a page it never finished); within
    PAGE_EDGE of `step`, either. `late`: the request came in the last PAGE_EDGE of that page: either."""
    if progress and lasted is not None and (late or (lasted >= step and looked is not None and looked < step)):
        return [progress - 1, progress]
    if progress == 0 or lasted is None or lasted >= step:
        return [progress]
    return [progress - 1] if lasted < step - PAGE_EDGE else [progress - 1, progress]


COUNT_KEY = "cancelled_after"  # the key a cancelled report's result names the pages it did under (the statement's)


def says_how_far(state, result, done: list[int]) -> bool:
    """Whether what the backend holds for a cancelled report (`state`, `result`) says how many pages it did: a dict
    whose ``cancelled_after`` is one of the counts in `done`, in any state it stored; its last PROGRESS, left when it
    stored no result (Ignore), by its ``current``. A full report's ``{"students": total}``, ``{"students": done,
    "total": total}`` (a full report of `done` students) and a dict holding every page number among its values name
    none: the count is read under its key, never guessed among the values."""
    key = "current" if state == PROGRESS else COUNT_KEY
    count = result.get(key) if isinstance(result, dict) else None
    return type(count) is int and count in done


def shown_outcome(held: list, done: list[int]) -> list | None:
    """The [state, result] of the cancelled report to show: the first that does not say how far it got, else the
    last (None when the backend held nothing)."""
    wrong = [entry for entry in held if not says_how_far(entry[0], entry[1], done)]
    return (wrong or held or [None])[0 if wrong else -1]


def first_marks(stack, job_id: str) -> dict:
    """When each progress and each state was first written to the job's row, by the database's clock (the trigger's
    record): {("progress", n): at, ("state", s): at}."""
    connection = stack.db()
    try:
        rows = appdb.execute(connection, "SELECT progress, state, at FROM check_progress_log WHERE job_id = ?",
                             (job_id,)).fetchall()
    finally:
        connection.close()
    first: dict = {}
    for progress, state, at in rows:
        for mark in (("state", state), ("progress", progress)):
            first[mark] = min(float(at), first.get(mark, float(at)))
    return first


def stopped_inside(stack, job_id: str, progress: int) -> float | None:
    """How long the page a cancelled report's progress stayed at had lasted when its row turned cancelled (from the
    first write of that progress, by the database's clock, as pages are timed); None without both marks. Below
    `step`, it stopped inside that page. A report that looks at the flag only between pages turns it after a whole
    page, its sleep and then its look at the flag (measured 9 ms or more past `step`): its page was done, and it
    did exactly `progress` pages."""
    first = first_marks(stack, job_id)
    begun, cancelled = first.get(("progress", progress)), first.get(("state", "cancelled"))
    return cancelled - begun if progress > 0 and begun is not None and cancelled is not None else None


def page_times(stack, job_id: str, students: int) -> list[float]:
    """How long each page of a finished report lasted, by the database's clock at its writes to its row: from the
    first write of each progress to the first write of the next, and, as one page, from the row turning running to
    the first progress plus from the last progress to the row turning done (a report that writes a page's
    progress at its start spends the last page before done, one that writes it at its end the first page after
    running). Empty when a mark is missing."""
    first = first_marks(stack, job_id)
    marks = [first.get(("progress", page)) for page in range(1, students + 1)]
    running, done = first.get(("state", "running")), first.get(("state", "done"))
    if running is None or done is None or None in marks:
        return []
    return [later - earlier for earlier, later in zip(marks, marks[1:])] + [marks[0] - running + done - marks[-1]]


def pages_last_step(pages: list[float], step: float, slack: float = PAGE_SLACK) -> bool:
    """Whether a report's pages (as `page_times` gives them) each last `step`: none shorter (a page's sleep only
    lengthens it), the shortest no more than `slack` longer (its writes and its look at the flag: a load only
    lengthens some pages, so a report whose every page runs long shows it in its shortest) and none more than
    PAGE_STALL longer (a loaded machine stalls a page now and then)."""
    return (bool(pages) and step - PAGE_CLOCK <= min(pages) <= step + slack
            and max(pages) <= step + PAGE_STALL)


def reference_extra(stack, step: float) -> float:
    """How much longer than `step` the shortest page of the lesson's own report (the code given, REFERENCE_PAGES
    pages) lasts on the same worker now, timed like the answer's: what the machine's load adds to a page's writes
    (0 when it could not be timed)."""
    job_id = send_report(stack, REFERENCE_PAGES, step, task=REFERENCE)
    finished_row(stack, job_id, REFERENCE_PAGES * (step + PAGE_STALL) + 10)
    pages = page_times(stack, job_id, REFERENCE_PAGES)
    return max(0.0, min(pages) - step) if pages else 0.0


def page_slack(stack, pages: list[float], step: float) -> float:
    """How much longer than `step` the shortest page may last: PAGE_SLACK, plus, when it lasts longer than that,
    twice what the load adds to the lesson's own page on the same worker just after (`reference_extra`; an answer
    may look at the flag and write a few times more a page than the code given): a loaded machine lengthens every
    page, the right answer's too (a 0.1 s step measured at 0.203 s with two checks at once on 2 cores)."""
    if not pages or min(pages) <= step + PAGE_SLACK:
        return PAGE_SLACK
    return PAGE_SLACK + 2 * reference_extra(stack, step)


def uncancelled(run: CheckRun, stack, students: int, step: float, hidden: bool) -> bool:
    """A report nobody cancels: done, with every student in its progress and its result, every page `step` long
    (`pages_last_step`). A page sleeping in 0.2 s slices until `step` has passed lasts 0.4 s at 0.25 s (0.2 s at
    0.04 s): its shortest is over; one sleeping int(step * 10) slices of 0.1 s lasts 0.2 s at 0.25 s, and one whose
    sleep is capped at 0.5 s lasts 0.5 s at 0.6 s: both are short."""
    job_id = send_report(stack, students, step)
    job = finished_row(stack, job_id, students * (step + PAGE_SLACK) + 10)
    result = job["result"] if isinstance(job["result"], dict) else {}
    pages = page_times(stack, job_id, students)
    slack = page_slack(stack, pages, step)
    bounds = [f"{step}–{step + slack:.2f} s", f"≤ {step + PAGE_STALL:.2f} s"]
    seen = [f"{value:.3f} s" for value in (min(pages), max(pages))] if pages else None
    return (run.expect("l04.check.uncancelled", ["done", students, students],
                       [job["state"], job["progress"], result.get("students")], hidden=hidden)
            and run.expect("l04.check.uncancelled_pages", bounds, seen, hidden=hidden,
                           passed=pages_last_step(pages, step, slack), students=students))


def started(stack, job_id: str, timeout: float) -> bool:
    """Whether the job's row left `queued` (its task began: the worker's prerun marks it running) within `timeout`."""
    return bool(helpers.until(lambda: (helpers.row(stack, job_id) or {}).get("state") != "queued", timeout))


def pool_threads(worker) -> int | None:
    """The threads of the pool's process plus the processes under it (None when it is gone): a task that returns
    while a thread or a process of its own goes on with its pages leaves more than the idle process had."""
    try:
        process = psutil.Process(worker.child_pids()[0])
        return process.num_threads() + len(process.children(recursive=True))
    except (IndexError, psutil.Error):
        return None


def request_on_start(stack, http, job_id: str) -> tuple[int, float]:
    """The API's cancel route, once the task whose row was flagged before it was sent has begun (a revoke that came
    too late to discard it): the request arrived on page 0."""
    started(stack, job_id, 10)
    http.post(f"/jobs/{job_id}/cancel")
    return 0, time.monotonic()


def cancel_while_running(run: CheckRun, stack, http, students: int, step: float, at: int, hidden: bool,
                         late: bool = False, hooked: bool = False) -> bool:
    """Cancel a report at page `at`, with a short one sent just after the request, queued behind it on the same
    pool: the pool has one process, so the short report starts only once the cancelled one has ended, however it
    ended (returned, raised, Ignore, which stores no result), and the moment it starts tells when the cancelled
    task let its process go (a task that only flags its row, then works or waits out its pages, holds it to
    the end); its row is read once the short report has started. The pool's pids before the first and after
    the second tell whether a process died (a process killed by a signal is gone once the pool has run the next
    task, whenever the kill landed), and its threads and processes under it, before the report and once the short
    one has ended, whether the cancelled task left work of its own running (a thread rendering the remaining
    pages). At page 0 the row is flagged before the message is sent: the task must begin no page. `late`: the
    request lands in the page's last moments (LATE before its end), after any look inside it; one flagged too late
    to come before the next page's look of a report that looks only between pages (a loaded machine) is tried
    again with a new report, earlier each time, up to LATE_ATTEMPTS times, then once inside the page. `hooked`: the
    worker flags the row itself as the report writes page `at`'s progress (`check_cancel_at`), whatever the load."""
    seen = {"timely": False}
    for attempt in range(LATE_ATTEMPTS if late else 0):
        seen = cancel_once(stack, http, students, step, at, LATE * (attempt + 1))
        if seen["timely"]:
            break
    if not seen["timely"]:  # not late, or no late request came in time: one inside the page, as the other cases
        seen = cancel_once(stack, http, students, step, at, None, hooked)
    return (run.expect("l04.check.cancelled_state", "cancelled", seen["state"], hidden=hidden)
            & run.expect("l04.check.cancelled_fast", True, seen["took"] <= CANCELLED_WITHIN, hidden=hidden,
                         seconds=round(seen["took"], 2))
            & run.expect("l04.check.cancel_freed", True, seen["freed"] <= FREED_WITHIN, hidden=hidden,
                         seconds=round(seen["freed"], 2))
            & run.expect("l04.check.cancelled_stopped", seen["threads"], seen["left"],
                         passed=seen["threads"] is None or seen["left"] is None or seen["left"] <= seen["threads"],
                         hidden=hidden)
            & run.expect("l04.check.cancelled_early", seen["began"], seen["shown"], passed=seen["early"], hidden=hidden)
            & run.expect("l04.check.cancelled_result", seen["done"][0] if len(seen["done"]) == 1 else seen["done"],
                         shown_outcome(seen["held"], seen["done"]),
                         passed=all(says_how_far(state, result, seen["done"]) for state, result in seen["held"]),
                         hidden=hidden)
            & run.expect("l04.check.same_process", True, seen["same_process"], hidden=hidden))


def cancel_once(stack, http, students: int, step: float, at: int, late: float | None, hooked: bool = False) -> dict:
    """One cancelled report and the short one behind it, as `cancel_while_running` describes: what it measured.
    `late`: the request flagged that long before the page's end, by the check's last read before it began.
    `hooked`: flagged by the worker as the report writes page `at`'s progress (`hooked_request`)."""
    worker = stack.workers[0]
    before = worker.wait_pool_ready()
    threads = pool_threads(worker)
    job_id = str(uuid.uuid4())
    seen = ProgressSeen(stack, job_id)
    earlier, connection, hook = None, None, None
    request = Path(stack.workdir) / HOOK_FILE  # the worker watches this report's looks (and flags page `at`: hooked)
    atomic.write_text(request, f"{job_id} {at if hooked else 0}")
    if at and hooked:
        send_report(stack, students, step, job_id)
        hook = hooked_request(stack, job_id, request, students * (step + PAGE_STALL) + 10)
    elif at:
        send_report(stack, students, step, job_id)
        earlier = page_begun(stack, job_id, at, step)
        if late is not None and earlier is not None:
            connection = stack.db()
            time.sleep(max(0.0, earlier + step - late - time.monotonic()))
        else:  # the request lands inside the page: after its look at the flag, before the next
            time.sleep(min(step / 2, 0.05))
    with ThreadPoolExecutor(max_workers=1) as pool:  # the clock runs from the request, not from its answer
        asked = time.monotonic() if hook is None else hook
        if hook is not None:  # flagged already: the route flags again and revokes
            answered = pool.submit(lambda: (http.post(f"/jobs/{job_id}/cancel"), (at, hook))[1])
        elif at:
            answered = pool.submit(request_cancel, stack, http, job_id, connection)
        else:
            send_report(stack, students, step, job_id, flagged=True)
            answered = pool.submit(request_on_start, stack, http, job_id)
        behind = send_report(stack, 2, 0.05)  # sent after the request: it cannot delay the request
        finished_row(stack, job_id, students * step + 3)
        took = time.monotonic() - asked
        started(stack, behind, students * step + 5)  # the moment, even past the bound, for the message
        freed = time.monotonic() - asked
        page, flagged = answered.result()
        began = max(at, page)
        # flagged within a step of the last read before page `at`: the report's next look at the flag came after it
        # (exactly `began` pages). Later (a loaded machine), a report that looks before each page may have looked
        # for the next page just before the flag and begin it just after (exactly `began` or one more). A late
        # request, even timely, may come after the look of a report that times its page from before its PROGRESS
        # reached the backend (a few ms before a step has passed since that read): `began` or one more.
        # flagged by the worker at page `at`'s progress write: exactly `at` pages begin.
        timely = at == 0 or hook is not None or (earlier is not None and flagged < earlier + step)
        strict = timely and late is None
    after_next = finished_row(stack, behind, students * step + 10)
    left = pool_threads(worker)
    job = helpers.row(stack, job_id)  # the cancelled report has ended: the next one ran after it
    progress = job["progress"] or 0
    highest = seen.highest()  # a page begun after the request, then rolled back or never written to the row
    shown = [progress, highest] if highest > progress else progress  # [the row's, the highest published] when apart
    held = seen.outcome()
    lasted = stopped_inside(stack, job_id, progress)
    done = pages_done(progress, lasted, step, late is not None and timely, first_look(request, progress))
    return {"state": job["state"], "took": took, "freed": freed, "threads": threads, "left": left, "began": began,
            "shown": shown, "done": done, "held": held, "timely": timely,
            "early": (progress == began or (not strict and progress == began + 1)) and highest <= progress,
            "same_process": after_next["state"] == "done" and worker.wait_pool_ready() == before}


@exercise("l04.cooperative_cancel")
def cooperative_cancel(run: CheckRun) -> None:
    """A report cancelled at page 2 of 10 (0.25 s each), one nobody cancels; hidden: page 1 of 8, page 9 of 30,
    page 13 of 120 (0.15 s, 0.05 s and 0.05 s a page), page 4 of 5 (0.3 s: a short report, cancelled near its end,
    which an answer that honours only early requests or only long reports runs to the end), and at the slowest step
    the statement cancels (0.6 s) pages 1, 2 and 3 of 6: a report that reads the flag only every third page misses
    1 s at one of them, whichever page it reads on, and one that skips any look between pages (a flag read every
    N pages, or kept for a second) begins a page after the request at one of them, whatever the timing. The
    statement's reports run 1 to hundreds of students, and N may grow with the report (every tenth of it: a look
    before every page below 20 students): at page 13 of 120, 13 being prime, a report that looks every N pages (N fixed or
    grown to 12) looks next no sooner than page 13 + N, unless N is 13. In every case a short report queued behind
    the cancelled one must start within 2 s of the request: a report that flags its row, then works or waits out
    its remaining pages holds the only process to its end (at least 2.25 s after the request in the first case,
    3.6 s at page 1 of 6 at 0.6 s), while one that stops lets it go within a page (0.6 s at most).
    A report that spends a second after seeing the flag before it marks its row (a cleanup) marks it about 1.55 s
    after a request 50 ms into a 0.6 s page, and one that waits one more step (0.6 s) about 1.15 s, past the 1 s
    bound, which leaves the right answer (about 0.55 s) 0.45 s to spare.
    Hidden too, beyond every number an answer might pick as a threshold: page 1 of a one-student report (0.3 s),
    inside its only page, which is also its last: the report has not ended, and looks once more before it returns
    (one that never looks after its last page ends done, and one that leaves reports under 3 students alone too);
    page 20 of 60 at 0.01 s (one that skips the look for pages under 0.05 s runs to the end, and one that keeps the
    flag 0.2 s in memory begins some 20 pages after the request); and page 127 of 130 at 0.25 s, 31.75 s after the
    report began (one that looks only for 120 pages, only for its first 30 s, or not in the last 10 pages of a long
    report runs to the end; one cut short by a 30 s time limit ends before the request). That case is also the check's
    long report: the one nobody cancels runs at most 3 pages, a 30 s threshold costing 30 s only once.
    Hidden too: a request that arrives as the task is picked up (its row flagged before the message is sent, the
    revoke too late to discard it), after which a report that does not look before its first page begins page 1
    (one that publishes a page's PROGRESS before it looks publishes page 1); and requests in the last 15 ms of the
    page before the last (page 9 of 10 at 0.25 s, 7 of 8 at 0.3 s), after any look inside that page: a report that
    publishes the next page's PROGRESS before it looks shows a page begun after the request, one that ignores a
    request once only the last page is left ends done, and one that hands over the full report when cancelled near
    its end (90 % and 87.5 % of its pages) stores it. A late request flagged too late to come before the next look
    of a report that looks only between pages (a loaded machine) is tried again with a new report, up to 3 times
    (15, 30, then 45 ms before the end), then once 50 ms into the page as the other cases;
    a report that begins the last page just before it may stop inside it or, its last look after that page, after
    it; a report that sees a late request inside its page may count that page either way (the statement: a request
    in a page's last 0.05 s), since under load its row turns cancelled after `step` however early it looked.
    Hidden too, at exact points of the run instead of at times: the worker loads `check_cancel_at`, which flags the
    row right after the report writes page 7 of 12's progress, and then the last page's of a 5-page report, both at
    0.05 s a page, too short for a look inside a page: a report that does not look before every page begins page 8
    (one that looks every 5th page), and one that does not look after its last page ends done, on every run. After
    each cancelled report and the
    short one behind it, the pool's process has no more threads and processes under it than before: a report that
    hands its remaining pages to a thread, and returns, leaves it running.
    Every progress the report writes to its row (a trigger records each write) and every PROGRESS it publishes to
    the result backend (the check subscribes to its channel) counts: a page begun after the request, even rolled
    back at once or published only to the backend, shows there. What the backend holds for the cancelled report,
    read from the same channel (the backend forgets it in 3 s), must name the pages it did under
    ``cancelled_after``, whatever its state: its SUCCESS, as the solution's ``{"cancelled_after": 2, "students":
    10}`` does, any other state it stored (a custom ``CANCELLED`` before an Ignore), and, by its ``current``, its
    last PROGRESS when it stored no result (Ignore); a report that skips its remaining pages and leaves the full
    ``{"students": total}`` under any state does not, nor ``{"students": done, "total": total}``, nor a dict with
    every page number among its values. A request that
    lands between a page's look at the flag and that page's first write counts as arriving on that page (the look
    began it): the lesson's solution looks, then writes; a result gives the pages begun (its final progress) or,
    when the report stopped inside its last page (its row turned cancelled before that page had lasted `step`), the
    whole pages, one fewer, and only those (either within 0.05 s of `step`, and either when its row turned after
    `step` but the look that found the flag began before, by the task's own clock, which `check_cancel_at` records
    in every case: a right answer that saw the request inside the page, its writes slowed by a loaded machine past
    `step`, gives one fewer, and one that finished its page, the page): a report that looks only between pages
    and gives one fewer is a page short, one that stops inside a page and counts it a page long (an Ignore leaving
    that page's PROGRESS too). A report
    nobody cancels, 3 students at 0.1 s (hidden: 4 at the default 0.25 s, 6 at 0.04 s, 3 at the slowest step that
    is cancelled, 0.6 s, and 2 at 0.8 s, above it: an answer that caps `step` at 0.6 s is short there), ends done with every student in its progress
    and in its result, and every page `step` long (the database's clock at each write to its row): none shorter,
    which a page's sleep only lengthens (a report that spares its last page's sleep is one step short there, whatever
    each page's writes cost), the shortest no more than 0.1 s longer (on a loaded machine, plus twice what the load
    adds to the shortest page of the lesson's own report, timed on the same worker just after), none more than 1.5 s
    longer. The first failed case ends the check."""
    with run.stack(helpers.SPEC, workers=[WorkerSpec(pool="prefork", concurrency=1, extra_args=("-I", HOOK))],
                   env={check_cancel_at.REQUEST_ENV: "{workdir}/" + HOOK_FILE}) as stack:
        http = helpers.client(stack)
        http.post(f"/jobs/{uuid.uuid4()}/cancel")  # the API's first request opens its connections: not timed
        log_progress_writes(stack)
        if not cancel_while_running(run, stack, http, students=10, step=0.25, at=2, hidden=False):
            return
        if not uncancelled(run, stack, students=3, step=0.1, hidden=False):
            return
        if run.graded(CANCEL_CRITERIA * (len(HIDDEN_CANCELS) + len(HOOKED_CANCELS) + len(LATE_CANCELS))
                      + UNCANCELLED_CRITERIA * len(UNCANCELLED)):
            for students, step, at in HOOKED_CANCELS:
                if not cancel_while_running(run, stack, http, students=students, step=step, at=at, hidden=True,
                                            hooked=True):
                    return
            for students, step, at in HIDDEN_CANCELS:
                if not cancel_while_running(run, stack, http, students=students, step=step, at=at, hidden=True):
                    return
            for students, step, at in LATE_CANCELS:
                if not cancel_while_running(run, stack, http, students=students, step=step, at=at, hidden=True,
                                            late=True):
                    return
            for students, step in UNCANCELLED:
                if not uncancelled(run, stack, students=students, step=step, hidden=True):
                    return
