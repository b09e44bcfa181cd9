"""Two 2-second reports, then the welcome e-mail: on one shared queue, and routed by task_routes."""
import time
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack

REPORT = ([1, 2, 3, 4], "2026-11", 0.5)  # 4 students × 0.5 s = 2 s


@dataclass
class Layout:
    report_queue: str
    welcome_queue: str
    wait: float  # seconds from the welcome's send to its start


def behind_reports(stack: Stack, **options) -> Layout:
    reports = [tasks.build_pdf.apply_async(REPORT, **options) for _ in range(2)]
    for report in reports:
        helpers.received_by(stack, report)  # a worker has taken both reports
    sent = time.time()
    welcome = tasks.send_welcome.apply_async(("bia@example.com", "Bia"), **options)
    wait = helpers.welcome_wait(welcome, sent)
    for report in reports:
        report.get(timeout=30)
    return Layout(reports[0].queue, welcome.queue, wait)


def welcome_behind_reports(stack: Stack) -> dict[str, Layout]:
    return {"shared": behind_reports(stack, queue="default"),  # everything on one queue
            "routed": behind_reports(stack)}                   # task_routes: reports to heavy, e-mail to priority
