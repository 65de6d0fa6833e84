from __future__ import annotations

import pytest
from django.test import Client


def test_home_page_shows_the_site_name(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "Splendor Online" in response.text


def test_home_page_loads_htmx_from_the_package_not_a_cdn(client: Client) -> None:
    response = client.get("/")

    assert "/static/django_htmx/htmx" in response.text
    assert "unpkg.com" not in response.text


@pytest.mark.django_db
def test_admin_login_page_is_served(client: Client) -> None:
    response = client.get("/admin/login/")

    assert response.status_code == 200
