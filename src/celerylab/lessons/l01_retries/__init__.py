"""Lesson 01: retries without duplicates (autoretry, backoff, jitter, idempotency, upserts)."""
