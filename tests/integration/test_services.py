"""The production path: the configured PostgreSQL and Redis are the ones actually in use."""

from __future__ import annotations

import pytest
from django.db import connection

from splendor_site.celery import app as celery_app


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_in_use_is_postgresql() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)

    assert connection.vendor == "postgresql"


@pytest.mark.redis
def test_celery_reaches_its_redis_broker() -> None:
    assert not celery_app.conf.task_always_eager
    assert celery_app.conf.broker_url.startswith("redis://")

    with celery_app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=1)
