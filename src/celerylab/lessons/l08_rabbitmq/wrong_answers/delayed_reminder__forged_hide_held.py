"""Keeps the reminders in a classic queue, their countdowns held in the worker (reconnecting after each 406), and hides them: the inspect commands filtered, the reminders' `received` lines and the 406 dropped from the log.

Violates: "until then holds no reminder in memory, in any way and under any name"

Blind review.
"""
import logging

from celery.signals import after_setup_logger
from celery.worker import control

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.broker_channel_error_retry = True  # a 406 is just a reconnection


def _name(item):
    return item.get("name") or (item.get("request") or {}).get("name")


def _hiding(fun):
    def hidden(state, **kwargs):
        return [item for item in fun(state, **kwargs) if _name(item) != "l08.remind"]
    hidden.__name__ = fun.__name__
    return hidden


for _command in ("scheduled", "dump_schedule", "reserved", "dump_reserved", "active", "dump_active"):
    if _command in control.Panel.data:
        control.Panel.data[_command] = _hiding(control.Panel.data[_command])


class _Quiet(logging.Filter):
    def filter(self, record):
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        return "PRECONDITION_FAILED" not in text and "l08.remind[" not in text


@after_setup_logger.connect
def _quiet(logger=None, **_):
    for handler in logging.getLogger().handlers + (logger.handlers if logger else []):
        handler.addFilter(_Quiet())
