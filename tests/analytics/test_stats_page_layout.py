"""The statistics page reads like statistics: one game at a time, a summary first, sections
reached from a table of contents, legible charts whose bars are told apart, a CSV per table."""

from __future__ import annotations

import csv
import html as html_lib
import io
import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from analytics import projections
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 4, 1, 9, tzinfo=UTC)


@pytest.fixture
def page(client: Client) -> str:
    bot = synthetic.SeatPlan(bot_level="random")
    plans = [synthetic.GamePlan(seats=[bot, bot], seed=seed) for seed in range(3)]
    synthetic.write_games(plans, start=START)
    projections.rebuild()
    return client.get(reverse("stats")).content.decode()


def test_a_summary_comes_first_and_the_contents_lead_to_every_section(page: str) -> None:
    summary = page[page.index('id="summary"') : page.index('id="cards"')]
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>(.*?)</dd>", summary, re.S))
    assert re.fullmatch(
        r"seat 1 \(moves first\): \d+\.\d%, seat 2: \d+\.\d%", facts["Win rate by seat"]
    )
    assert re.fullmatch(r"\d+\.\d rounds", facts["Average length"])
    assert re.search(r">L\d [WBGRK]\d [^<]+</a> \(\d+\.\d%\)", facts["Most bought"])
    assert re.search(r">L\d [WBGRK]\d [^<]+</a> \(\d+\.\d%\)", facts["Least bought"])
    toc = re.search(r'<nav class="stats-toc" aria-label="Sections">(.*?)</nav>', page, re.S)
    assert toc
    anchors = re.findall(r'href="#([^"]+)"', toc.group(1))
    assert {"cards", "nobles", "seats", "lengths", "endings", "people-and-bots"} <= set(anchors)
    for anchor in anchors:
        assert page.count(f'id="{anchor}"') == 1, anchor


def test_each_csv_link_serves_its_tables_rows(client: Client, page: str) -> None:
    api = client.get("/api/v1/stats/", {"variant": "splendor"}).json()
    links = {
        match.group(1): html_lib.unescape(match.group(2))
        for match in re.finditer(r'href="/stats/csv/(\w+)/\?([^"]*)"', page)
    }
    expected = {"cards", "nobles", "seat_order", "rounds", "points", "endings", "actions",
                "players_by_kind", "versus"}  # fmt: skip
    assert expected <= set(links)
    for table in expected:
        response = client.get(f"/stats/csv/{table}/?{links[table]}")
        assert response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert len(rows) == len(api[table]), table
    cards = list(
        csv.DictReader(
            io.StringIO(client.get(f"/stats/csv/cards/?{links['cards']}").content.decode())
        )
    )
    assert {row["variant"] for row in cards} == {"splendor"}  # the page's game only


def test_chart_labels_are_legible_and_every_bar_is_named_apart(page: str) -> None:
    charts = re.findall(r'<svg [^>]*class="pygal-chart[^"]*".*?</svg>', page, re.S)
    assert len(charts) == 6
    for chart in charts:
        texts = re.findall(r"<text\b([^>]*)>", chart)
        assert texts
        for attributes in texts:
            size = re.search(r'font-size="(\d+(?:\.\d+)?)"', attributes)
            assert size, attributes
            assert float(size.group(1)) >= 11, attributes
        axis = chart[chart.index('class="axis x') :]
        axis = axis[: axis.index('class="axis y')] if 'class="axis y' in axis else axis
        labels = re.findall(r"<text\b[^>]*>([^<]+)</text>", axis)
        labels = [label for label in labels if label.strip()]
        assert labels
        assert len(labels) == len(set(labels)), sorted(labels)
    assert len(set(re.findall(r">(L1 [WBGRK]\d [^<]+)<", charts[0]))) == 40  # one per card
