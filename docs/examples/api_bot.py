"""A Splendor bot that plays through the REST API, using only `requests`.

    python api_bot.py BASE_URL TOKEN [TOKEN ...]

With one token it creates a game against the server's random bot; with several it seats one
player per token (in one game) and plays them all. It prints the result when the game ends.
"""

from __future__ import annotations

import random
import sys
import time
import uuid

import requests

FINISHED = {"finished", "aborted"}


def session_for(token: str) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    return session


def choose(actions: list[dict], rng: random.Random) -> dict:
    """Buy a card when possible, else anything legal."""
    purchases = [action for action in actions if action["type"] == "buy_card"]
    return rng.choice(purchases or actions)


def play(base_url: str, tokens: list[str], seed: int = 0, timeout: float = 600) -> dict:
    rng = random.Random(seed)
    players = [session_for(token) for token in tokens]
    others = [{"type": "open"}] * (len(players) - 1) or [{"type": "bot", "level": "random"}]
    seats = [{"type": "user"}, *others]
    created = players[0].post(f"{base_url}/api/v1/games/", json={"seats": seats})
    created.raise_for_status()
    game_url = base_url + created.headers["Location"]
    for player in players[1:]:
        player.post(game_url + "join/", json={}).raise_for_status()
    etags = [""] * len(players)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        acted = False
        for index, player in enumerate(players):
            response = player.get(game_url, headers={"If-None-Match": etags[index]})
            if response.status_code == 304:  # nothing new since this player last looked
                continue
            response.raise_for_status()
            game, etags[index] = response.json(), response.headers["ETag"]
            if game["status"] in FINISHED:
                return game
            actions, etag = game["legal_actions"], etags[index]
            while actions:  # the game waits for this player
                answer = player.post(
                    game_url + "actions/",
                    json=choose(actions, rng),
                    headers={"If-Match": etag, "Idempotency-Key": str(uuid.uuid4())},
                )
                acted = True
                if answer.status_code == 412:  # the game moved on, so look again
                    break
                answer.raise_for_status()
                # Still this player's turn (tokens to return, a noble to choose)? The answer
                # carries the new version and the next legal actions: no need to GET them.
                actions, etag = answer.json()["actions"], answer.headers["ETag"]
        if not acted:
            time.sleep(0.2)
    raise TimeoutError(f"the game at {game_url} did not end in {timeout} seconds")


if __name__ == "__main__":
    final = play(sys.argv[1].rstrip("/"), sys.argv[2:])
    print("game", final["id"], final["status"], "result:", final["result"])
