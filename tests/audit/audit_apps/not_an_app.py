app = {"broker_url": "redis://"}
