"""A Flask project's config module: Flask's keys and Celery's, all uppercase, handed to Celery whole."""
DEBUG = False
TESTING = False
SECRET_KEY = "not-a-celery-setting"
SESSION_COOKIE_SECURE = True
SQLALCHEMY_DATABASE_URI = "postgresql://localhost/shop"
SQLALCHEMY_TRACK_MODIFICATIONS = False
JSON_SORT_KEYS = False
MAX_CONTENT_LENGTH = 16 * 1024 * 1024
CELERY_BROKER_URL = "redis://broker.internal:6379/0"  # not the broker the app uses (CLEAN's localhost)
