"""CL407: a Redis visibility timeout carried over to a RabbitMQ broker, where it does nothing."""
from audit_apps.base import make_app

app = make_app("cl407", broker_url="amqp://guest@localhost:5672//",
               broker_transport_options={"visibility_timeout": 7200})


@app.task(name="cl407.work")
def work():
    return 1
