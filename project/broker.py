"""kombu's Redis transport, with one fix: a worker whose acknowledgement fails keeps consuming.

A worker takes one message at a time (CELERY_WORKER_PREFETCH_MULTIPLIER, acks_late). kombu's Redis QoS forgets a
delivered message only after Redis confirms the acknowledgement; when Redis is frozen (or stops) just as a build
finishes, the acknowledgement fails, the message is never forgotten, and the worker, believing it still holds its
one message, never asks for another: it stays up, connected and idle for good while builds wait. Here a failed
acknowledgement is forgotten locally all the same (and still reported as failed, so Celery logs it). The message
stays in Redis's unacked set and is delivered again after the visibility timeout; the build's claim in the database
(quotes.services.builds) makes that second delivery a no-op.

Selected by settings.CELERY_BROKER_TRANSPORT for redis:// broker URLs (rediss:// keeps kombu's own, for its TLS set-up).
"""

from __future__ import annotations

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def ack(self, delivery_tag: str) -> None:
        try:
            super().ack(delivery_tag)
        except self.channel.connection_errors:
            virtual.QoS.ack(self, delivery_tag)  # forget it here, so the worker may take the next message
            raise


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
