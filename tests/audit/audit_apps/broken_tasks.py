raise ImportError("cannot import name 'Invoice' from 'billing.models'")
