"""Rewrites the report's route RabbitMQ-style, with an exchange and a routing key ({"queue": "heavy", "exchange": "reports", "routing_key": "report.build_pdf"}): the route still names `heavy` (so the app's router answers "heavy"), but the message is published to an exchange no queue is bound to and is dropped: no worker ever receives a PDF report. Violates: "your app's routes (...) still send (...) `report.build_pdf` to `heavy`". Blind review.
"""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "email.send_password_reset": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy", "exchange": "reports", "routing_key": "report.build_pdf"},
    "report.export_grades": {"queue": "heavy"},
}
