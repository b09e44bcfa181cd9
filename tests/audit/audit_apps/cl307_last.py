"""CL307 on a batch task that sends its next batch, delayed, as its transaction's last act (plane's version syncs):
the COMMIT comes first, undecided. The same send with a write after it stays a defect."""
import logging

from audit_apps.base import make_app

app = make_app("cl307l")


class transaction:  # noqa: N801 - stands for django.db.transaction
    @staticmethod
    def atomic():
        return open("/dev/null")


@app.task(name="cl307l.sync_batch")
def sync_batch(offset: int = 0, total: int = 0):
    with transaction.atomic():
        end = offset + 100
        if end < total:
            sync_batch.apply_async(kwargs={"offset": end, "total": total}, countdown=300)  # the COMMIT follows at once
        logging.info("synced up to %s", end)
        return


@app.task(name="cl307l.sync_and_mark")
def sync_and_mark(progress, offset: int = 0):
    with transaction.atomic():
        sync_and_mark.apply_async(kwargs={"offset": offset + 100}, countdown=300)
        progress.save()   # a failure here rolls the batch back; the next one runs all the same
