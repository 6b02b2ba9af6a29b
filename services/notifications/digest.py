"""The digest: at most one mail per chosen period listing every game that waits for the player now (their
claimed seats on turn in running games), read when the mail is sent, not when the period began; in the
recipient's language."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.kernel import GameModule
from domain.kernel.phrases import Listing, say, say_n
from infra.channels.mail import Mail
from infra.notifications import Watch

from .render import footer, game_url, html_footer, settings_url
from .words import Words


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


def digest_mail(delivery_id: str, to: str, waiting: Sequence[Waiting], public_url: str, unsubscribe: str,
                words: Words) -> Mail:
    count = len(waiting)
    titles = sorted({w.title for w in waiting})
    subject = words.text(say("Your turn in {game}", game=waiting[0].title) if count == 1 else say_n(
        "Your turn in {n} game: {games}", "Your turn in {n} games: {games}", "n", n=count,
        games=Listing(tuple(titles))))
    seated = [words.text(say("as {seat}", seat=w.seat_name)) for w in waiting]
    lines = [f"- {w.title} ({as_seat}): {game_url(public_url, w.game_id)}" for w, as_seat in zip(waiting, seated,
                                                                                              strict=True)]
    wait = words.gettext("These games wait for you:")
    why = words.gettext("You get this digest because you asked to be told by email at most once a period.")
    settings = settings_url(public_url)
    text = f"{wait}\n\n" + "\n".join(lines) + f"\n\n--\n{why}\n" + footer(words, settings, unsubscribe)
    items = "".join(f'<li><a href="{html.escape(game_url(public_url, w.game_id))}">{html.escape(w.title)}</a> '
                    f"({html.escape(as_seat)})</li>" for w, as_seat in zip(waiting, seated, strict=True))
    body = (f"<p>{html.escape(wait)}</p><ul>{items}</ul>"
            f'<hr><p style="color:#666;font-size:small">{html.escape(why)} '
            + html_footer(words, settings, unsubscribe) + "</p>")
    return Mail(message_id=delivery_id, to=to, subject=subject, text=text, html=body, unsubscribe_url=unsubscribe)
