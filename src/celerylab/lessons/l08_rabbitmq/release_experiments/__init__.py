"""What differs between RabbitMQ releases, measured with a plain AMQP client on a private node of each release."""
