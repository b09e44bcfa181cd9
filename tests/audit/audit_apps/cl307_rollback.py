"""CL307 on a task given the objects themselves, sent before the transaction's writes (as pontoon's send_message):
no race on a row, but a rollback after the send still e-mails a message never saved. The on_commit send is clean."""
from audit_apps.base import make_app

app = make_app("cl307r")


@app.task(name="cl307r.send_emails")
def send_emails(recipients: list, subject: str):
    return len(recipients)


class transaction:  # noqa: N801 - stands for django.db.transaction
    @staticmethod
    def atomic(function):
        return function

    @staticmethod
    def on_commit(callback):
        callback()


@transaction.atomic
def send_message(message, recipients: list):
    send_emails.delay(recipients, message.subject)   # the e-mails leave now, whatever happens to the save below
    message.save()


@transaction.atomic
def send_message_fixed(message, recipients: list):
    transaction.on_commit(lambda: send_emails.delay(recipients, message.subject))
    message.save()
