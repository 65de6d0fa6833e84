"""Playing from the game page: every move, with and without htmx, and every refusal."""

from __future__ import annotations

import html
import re
import secrets
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, GameEvent
from games.reads import game_view
from games.vocabulary import Status
from tests.web.tables import (
    act,
    buys,
    face_up_for_seat_zero,
    game_at,
    hidden_card_ids,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

# The bots' turns are queued after commit: these tests commit for real, as the site does.
BOTS_MOVE_AFTER_COMMIT = pytest.mark.django_db(transaction=True)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def move(
    client: Client,
    game: Game,
    *,
    htmx: bool = False,
    follow: bool = False,
    headers: dict[str, str] | None = None,
    **fields: Any,
) -> Any:
    """Post one move as the game page's forms do, at the game's current version."""
    data = {
        "expected_version": fresh(game).version,
        "idempotency_key": secrets.token_urlsafe(16),
        **fields,
    }
    extra = {**(HTMX if htmx else {}), **(headers or {})}
    return client.post(f"/games/{game.pk}/act/", data, follow=follow, **extra)


def footprint(game: Game) -> tuple[int, int]:
    return fresh(game).version, GameEvent.objects.filter(game=game).count()


def last_action(game: Game) -> dict[str, Any]:
    event = GameEvent.objects.filter(game=game, kind="ActionTaken").order_by("-seq").first()
    assert event is not None
    return dict(event.payload["action"])


def seat_view(game: Game, user: User) -> dict[str, Any]:
    return game_view.game_view_for_viewer(fresh(game), user)


def notices(page: str) -> str:
    return html.unescape(" ".join(re.findall(r'class="notice[^"]*"[^>]*>([^<]*)<', page)))


def first_three_colours(game: Game, user: User) -> list[str]:
    supply = seat_view(game, user)["state"]["supply"]
    return [colour for colour in ("white", "blue", "green", "red", "black") if supply.get(colour)][
        :3
    ]


# Each move without JavaScript: POST, then a redirect back to the game -------------------------


def test_taking_three_gems_redirects_back_to_the_game(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    gems = first_three_colours(two_player_game, alice)

    response = move(alice_client, two_player_game, kind="take_gems", gems=gems)

    assert response.status_code == 303
    assert response["Location"] == f"/games/{two_player_game.pk}/"
    assert last_action(two_player_game) == {"type": "take_gems", "gems": gems}
    page = alice_client.get(response["Location"]).text
    assert "Waiting for bob" in page
    assert "alice took white, blue and green." in page


def test_taking_two_of_a_colour(alice_client: Client, two_player_game: Game) -> None:
    move(alice_client, two_player_game, kind="take_gems", take_two="red", gems=["white"])

    assert last_action(two_player_game) == {"type": "take_gems", "gems": ["red", "red"]}


def test_reserving_a_face_up_card(alice: User, alice_client: Client, two_player_game: Game) -> None:
    card = seat_view(two_player_game, alice)["state"]["board"][0][2]["id"]

    move(alice_client, two_player_game, kind="reserve_card", card=card)

    view = seat_view(two_player_game, alice)["state"]
    assert [item["id"] for item in view["players"][0]["reserved"]] == [card]
    assert view["players"][0]["tokens"] == {"gold": 1}


def test_reserving_blind_from_a_deck(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    move(alice_client, two_player_game, kind="reserve_from_deck", level="3")

    reserved = seat_view(two_player_game, alice)["state"]["players"][0]["reserved"]
    assert len(reserved) == 1
    assert reserved[0]["level"] == 3
    assert last_action(two_player_game) == {"type": "reserve_from_deck", "level": 3}


def test_buying_a_card_with_the_default_payment(
    alice: User, bob: User, alice_client: Client
) -> None:
    game = game_at("can_buy", UserSeat(alice), UserSeat(bob), creator=alice)
    card = buys(seat_view(game, alice)["legal_actions"])[0]
    page = alice_client.get(f"/games/{game.pk}/").text
    assert re.search(rf'data-card="{card}"[^>]*>', page)
    assert f'name="card" value="{card}"' in page

    move(alice_client, game, kind="buy_card", card=card)

    mine = seat_view(game, alice)["state"]["players"][0]
    assert card in [item["id"] for item in mine["cards"]]
    assert last_action(game) == {"type": "buy_card", "card": card}


def test_affordable_cards_are_marked_and_offer_a_buy_button(
    alice: User, bob: User, alice_client: Client
) -> None:
    game = game_at("can_buy", UserSeat(alice), UserSeat(bob), creator=alice)
    affordable = set(buys(seat_view(game, alice)["legal_actions"]))

    page = alice_client.get(f"/games/{game.pk}/").text

    marked = {int(card) for card in re.findall(r'is-affordable[^"]*" data-card="(\d+)"', page)}
    buy_forms = re.findall(
        r'value="buy_card">\s*<input type="hidden" name="card" value="(\d+)"', page
    )
    with_buy_button = {int(card) for card in buy_forms}
    assert affordable
    assert affordable <= marked
    assert with_buy_button == affordable


def test_buying_with_gold_in_place_of_coloured_tokens(
    alice: User, bob: User, alice_client: Client
) -> None:
    game = game_at("gold_choice", UserSeat(alice), UserSeat(bob), creator=alice)
    page = alice_client.get(f"/games/{game.pk}/").text
    form = next(form for form in re.findall(r"<form\b.*?</form>", page, re.S) if "payment" in form)
    card = int(re.findall(r'name="card" value="(\d+)"', form)[0])
    payment = re.findall(r'name="payment" value="([^"]+)"', form)[0]

    move(alice_client, game, kind="buy_card", card=card, payment=payment)

    action = last_action(game)
    assert action["card"] == card
    assert action["payment"] == {
        colour: int(count) for colour, count in (part.split("=") for part in payment.split(","))
    }
    assert action["payment"]["gold"] >= 1


def test_giving_back_tokens_above_ten(alice: User, alice_client: Client) -> None:
    game = game_at("return_tokens", UserSeat(alice), BotSeat("greedy"), creator=alice)
    move(alice_client, game, kind="take_gems", gems=first_three_colours(game, alice))
    view = seat_view(game, alice)["state"]
    assert view["phase"] == "return_tokens"
    page = alice_client.get(f"/games/{game.pk}/").text
    assert "Give back 2 tokens" in page
    held = view["players"][0]["tokens"]
    colour = max(held, key=held.get)

    response = move(alice_client, game, kind="return_tokens", **{f"return_{colour}": 2})

    assert response.status_code == 303
    assert last_action(game) == {"type": "return_tokens", "tokens": {colour: 2}}
    assert seat_view(game, alice)["state"]["players"][0]["token_count"] == 10


def test_choosing_a_noble(alice: User, bob: User, alice_client: Client) -> None:
    game = game_at("choose_noble", UserSeat(alice), UserSeat(bob), creator=alice)
    pending = [noble["id"] for noble in seat_view(game, alice)["state"]["pending_nobles"]]
    page = alice_client.get(f"/games/{game.pk}/").text
    for noble in pending:
        assert f'name="noble" value="{noble}"' in page

    move(alice_client, game, kind="choose_noble", noble=pending[1])

    mine = seat_view(game, alice)["state"]["players"][0]
    assert [noble["id"] for noble in mine["nobles"]] == [pending[1]]


@BOTS_MOVE_AFTER_COMMIT
def test_a_move_against_a_bot_comes_back_after_the_bot_has_played(
    alice: User, alice_client: Client, bot_game: Game
) -> None:
    move(alice_client, bot_game, kind="take_gems", gems=first_three_colours(bot_game, alice))

    page = alice_client.get(f"/games/{bot_game.pk}/").text
    assert fresh(bot_game).acting_seat == 0
    assert "Greedy bot" in page
    assert "Your turn" in page


# With htmx: the same forms, answered with the regions that changed ----------------------------


def test_an_htmx_move_gets_the_changed_regions_not_a_page(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    response = move(
        alice_client,
        two_player_game,
        htmx=True,
        kind="take_gems",
        gems=first_three_colours(two_player_game, alice),
    )

    assert response.status_code == 200
    assert "<html" not in response.text
    regions = re.findall(r'id="region-(\w+)"[^>]*hx-swap-oob="true"', response.text)
    assert {"status", "supply", "players", "log"} <= set(regions)
    assert "Waiting for bob" in response.text


def test_htmx_leaves_out_the_regions_the_page_already_shows(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    page = alice_client.get(f"/games/{two_player_game.pk}/").text
    shown = ",".join(
        f"{name}={digest}"
        for name, digest in re.findall(r'data-region="(\w+)" data-digest="(\w+)"', page)
    )

    response = move(
        alice_client,
        two_player_game,
        htmx=True,
        kind="take_gems",
        gems=first_three_colours(two_player_game, alice),
        headers={"HTTP_X_REGION_DIGESTS": shown},
    )

    regions = set(re.findall(r'id="region-(\w+)"', response.text))
    assert "nobles" not in regions  # nobody gained or lost a noble
    assert {"status", "supply", "players", "log"} <= regions


def test_the_regions_endpoint_serves_the_fresh_regions(
    alice: User, bob_client: Client, two_player_game: Game
) -> None:
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})

    response = bob_client.get(f"/games/{two_player_game.pk}/regions/", **HTMX)

    assert response.status_code == 200
    assert "Your turn" in response.text
    assert 'hx-swap-oob="true"' in response.text


def test_an_htmx_refusal_carries_its_message_and_changes_nothing(
    alice_client: Client, two_player_game: Game
) -> None:
    before = footprint(two_player_game)

    response = move(
        alice_client, two_player_game, htmx=True, kind="take_gems", gems=["white", "white", "blue"]
    )

    assert response.status_code == 400
    assert "Take tokens of different colours, or two of one colour." in notices(response.text)
    assert footprint(two_player_game) == before


@BOTS_MOVE_AFTER_COMMIT
def test_the_game_ending_by_an_htmx_move_reloads_the_page(
    alice: User, alice_client: Client
) -> None:
    game = game_at("near_end", UserSeat(alice), BotSeat("greedy"), creator=alice)
    view = seat_view(game, alice)
    cards = face_up_for_seat_zero(view["state"])
    points = view["state"]["players"][0]["points"]
    winning = next(
        card for card in buys(view["legal_actions"]) if points + cards[card]["points"] >= 15
    )

    response = move(alice_client, game, htmx=True, kind="buy_card", card=winning)

    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    assert fresh(game).status == Status.FINISHED


# Refusals: clear messages, nothing changed ----------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "take_gems", "gems": ["white", "white", "red"]}, "Take tokens of different"),
        ({"kind": "pass"}, "You may pass only when no other action is possible."),
        ({"kind": "buy_card", "card": "3"}, "Card 3 is neither face up on the board nor in"),
        ({"kind": "reserve_from_deck", "level": "4"}, "There is no level 4 deck"),
        ({"kind": "choose_noble", "noble": "1"}, "No noble is waiting for your choice."),
        ({"kind": "take_gems", "gems": ["purple"]}, "That move could not be read"),
        ({"kind": "take_gems"}, "Choose the gems to take."),
        ({"kind": "teleport"}, "That move could not be read"),
        ({"kind": "buy_card", "card": "5", "payment": "gold=lots"}, "is not a colour and a count"),
    ],
)
def test_an_illegal_or_forged_move_is_refused_with_a_message(
    alice_client: Client, two_player_game: Game, fields: dict[str, Any], message: str
) -> None:
    before = footprint(two_player_game)

    response = move(alice_client, two_player_game, **fields)
    page = alice_client.get(response["Location"]).text

    assert response.status_code == 303
    assert message in notices(page)
    assert footprint(two_player_game) == before


def test_buying_a_card_hidden_in_a_deck_is_refused_without_revealing_it(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    hidden = min(hidden_card_ids(two_player_game, viewer_seat=0))
    before = footprint(two_player_game)

    response = move(alice_client, two_player_game, kind="buy_card", card=hidden, follow=True)

    assert f"Card {hidden} is neither face up on the board nor in your hand." in notices(
        response.content.decode()
    )
    assert footprint(two_player_game) == before


def test_a_player_cannot_move_out_of_turn(bob_client: Client, two_player_game: Game) -> None:
    before = footprint(two_player_game)

    response = move(bob_client, two_player_game, kind="take_gems", gems=["white", "blue", "green"])

    assert "It is not your turn: the game waits for alice." in notices(
        bob_client.get(response["Location"]).text
    )
    assert footprint(two_player_game) == before


def test_a_spectator_cannot_move(carol_client: Client, two_player_game: Game) -> None:
    before = footprint(two_player_game)

    response = move(
        carol_client, two_player_game, kind="take_gems", gems=["white", "blue", "green"]
    )

    assert "You do not have a seat in this game." in notices(
        carol_client.get(response["Location"]).text
    )
    assert footprint(two_player_game) == before


def test_a_guest_is_sent_to_log_in(client: Client, two_player_game: Game) -> None:
    before = footprint(two_player_game)

    response = move(client, two_player_game, kind="take_gems", gems=["white", "blue", "green"])

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert footprint(two_player_game) == before


def test_a_move_without_the_csrf_token_is_forbidden(alice: User, two_player_game: Game) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    before = footprint(two_player_game)

    response = move(strict, two_player_game, kind="take_gems", gems=["white", "blue", "green"])

    assert response.status_code == 403
    assert footprint(two_player_game) == before


def test_every_form_on_the_game_page_carries_csrf_version_and_a_fresh_key(
    alice_client: Client, two_player_game: Game
) -> None:
    page = alice_client.get(f"/games/{two_player_game.pk}/").text

    forms = re.findall(r"<form\b.*?</form>", page, re.S)
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', page)
    assert len(forms) > 10
    for form in forms:
        assert 'name="csrfmiddlewaretoken"' in form
        if "/act/" in form:
            assert f'name="expected_version" value="{fresh(two_player_game).version}"' in form
            assert 'name="idempotency_key"' in form
    assert len(keys) == len(set(keys))


def test_a_stale_tab_is_told_the_game_moved_on_and_gets_a_fresh_board(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    stale = fresh(two_player_game).version
    move(alice_client, two_player_game, kind="take_gems", gems=["white", "blue", "green"])
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})  # bob
    before = footprint(two_player_game)

    response = alice_client.post(
        f"/games/{two_player_game.pk}/act/",
        {
            "kind": "take_gems",
            "gems": ["red", "black"],
            "take_two": "",
            "expected_version": stale,
            "idempotency_key": secrets.token_urlsafe(16),
        },
        follow=True,
    )

    assert "The game moved on" in notices(response.content.decode())
    assert f'data-version="{before[0]}"' in response.content.decode()
    assert footprint(two_player_game) == before


def test_a_stale_htmx_move_gets_409_and_the_fresh_regions(
    alice_client: Client, two_player_game: Game
) -> None:
    stale = fresh(two_player_game).version
    move(alice_client, two_player_game, kind="take_gems", gems=["white", "blue", "green"])
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})

    response = alice_client.post(
        f"/games/{two_player_game.pk}/act/",
        {"kind": "pass", "expected_version": stale, "idempotency_key": "a-stale-tab-key"},
        **HTMX,
    )

    assert response.status_code == 409
    assert "The game moved on" in notices(response.text)
    assert f'data-version="{fresh(two_player_game).version}"' in response.text


def test_a_double_click_plays_the_move_once(alice_client: Client, two_player_game: Game) -> None:
    fields = {
        "kind": "take_gems",
        "gems": ["white", "blue", "green"],
        "expected_version": fresh(two_player_game).version,
        "idempotency_key": "one-click-one-key",
    }

    first = alice_client.post(f"/games/{two_player_game.pk}/act/", fields)
    second = alice_client.post(f"/games/{two_player_game.pk}/act/", fields)

    assert first.status_code == second.status_code == 303
    assert GameEvent.objects.filter(game=two_player_game, kind="ActionTaken").count() == 1
    assert "moved on" not in notices(alice_client.get(f"/games/{two_player_game.pk}/").text)


def test_a_form_from_an_old_page_reusing_its_key_is_told_the_game_moved_on(
    alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    key = "key-of-an-old-page"
    version = fresh(two_player_game).version
    taken = {"kind": "take_gems", "gems": ["white", "blue", "green"]}
    alice_client.post(
        f"/games/{two_player_game.pk}/act/",
        {**taken, "expected_version": version, "idempotency_key": key},
    )
    before = footprint(two_player_game)

    response = alice_client.post(
        f"/games/{two_player_game.pk}/act/",
        {
            "kind": "reserve_from_deck",
            "level": 1,
            "expected_version": version,
            "idempotency_key": key,
        },
        follow=True,
    )

    assert "The game moved on" in notices(response.content.decode())
    assert footprint(two_player_game) == before


# Resigning, the end, the history --------------------------------------------------------------


def test_resigning_asks_first_then_ends_the_game(
    alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    confirm = alice_client.get(f"/games/{two_player_game.pk}/resign/")
    assert "Yes, resign" in confirm.text

    response = alice_client.post(f"/games/{two_player_game.pk}/resign/")

    assert response.status_code == 303
    assert fresh(two_player_game).status == Status.FINISHED
    page = bob_client.get(f"/games/{two_player_game.pk}/").text
    assert "bob wins!" in page
    assert "alice resigned" in page
    assert "resigned</span>" in page


@BOTS_MOVE_AFTER_COMMIT
def test_a_finished_game_shows_the_scores_and_why_the_winner_won(
    alice: User, alice_client: Client
) -> None:
    game = game_at("near_end", UserSeat(alice), BotSeat("greedy"), creator=alice)
    view = seat_view(game, alice)
    cards = face_up_for_seat_zero(view["state"])
    points = view["state"]["players"][0]["points"]
    winning = next(
        card for card in buys(view["legal_actions"]) if points + cards[card]["points"] >= 15
    )
    move(alice_client, game, kind="buy_card", card=winning)

    page = alice_client.get(f"/games/{game.pk}/").text

    result = fresh(game).result
    assert result is not None
    assert "Cards bought" in page
    assert "A player reached 15 points and the round was played out." in page
    assert 'class="take-form' not in page
    assert "Resign" not in page


def test_the_history_lists_every_event_in_words(
    alice_client: Client, two_player_game: Game
) -> None:
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})
    act(two_player_game, {"type": "reserve_from_deck", "level": 2})

    page = alice_client.get(f"/games/{two_player_game.pk}/history/").text

    assert "alice took seat 1." in page
    assert "The game started" in page
    assert "alice took white, blue and green." in page
    assert "bob reserved a card from the level 2 deck, unseen." in page
    assert "The setup behind it is revealed when the game ends." in page
