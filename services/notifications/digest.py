"""The digest: at most one mail per chosen period listing every game that waits for the player now (their
claimed seats on turn in running games), read when the mail is sent, not when the period began."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.kernel import GameModule
from infra.channels.mail import Mail
from infra.notifications import Watch

from .render import game_url, settings_url


class Waiting(msgspec.Struct, frozen=True):
    game_id: str
    title: str
    seat_name: str


async def waiting_games(store: Watch, player_id: str, games: Mapping[str, GameModule[Any]]) -> list[Waiting]:
    """Every running game in which one of the player's seats is on turn, longest waiting first."""
    return [Waiting(w.game_id, _title(games, w.game_type), w.seat_name) for w in await store.waiting(player_id)]


def _title(games: Mapping[str, GameModule[Any]], game_type: str) -> str:
    game = games.get(game_type)
    return (game.title or game.name) if game is not None else game_type


def digest_mail(delivery_id: str, to: str, waiting: Sequence[Waiting], public_url: str, unsubscribe: str) -> Mail:
    count = len(waiting)
    titles = sorted({w.title for w in waiting})
    subject = (f"Your turn in {waiting[0].title}" if count == 1
               else f"Your turn in {count} games: {', '.join(titles)}")
    lines = [f"- {w.title} (as {w.seat_name}): {game_url(public_url, w.game_id)}" for w in waiting]
    text = ("These games wait for you:\n\n" + "\n".join(lines) +
            f"\n\n--\nYou get this digest because you asked to be told by email at most once a period.\n"
            f"Change what you are told: {settings_url(public_url)}\nStop these mails: {unsubscribe}\n")
    items = "".join(f'<li><a href="{html.escape(game_url(public_url, w.game_id))}">{html.escape(w.title)}</a> '
                    f"(as {html.escape(w.seat_name)})</li>" for w in waiting)
    body = (f"<p>These games wait for you:</p><ul>{items}</ul>"
            f'<hr><p style="color:#666;font-size:small">You get this digest because you asked to be told by email '
            f'at most once a period. <a href="{html.escape(settings_url(public_url))}">Change what you are told</a>'
            f' · <a href="{html.escape(unsubscribe)}">Stop these mails</a></p>')
    return Mail(message_id=delivery_id, to=to, subject=subject, text=text, html=body, unsubscribe_url=unsubscribe)
