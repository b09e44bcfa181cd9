"""Small Celery apps for the audit's tests: one defect each, a clean one, and each lesson's incident and fix."""
