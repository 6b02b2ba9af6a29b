"""The accounts service: players who are people (sign-in links and their limits, names), their vacations, where
their pages are open (presence), and the mail that reaches them. Built once at start-up (:mod:`.bootstrap`)."""

from __future__ import annotations

import html
import secrets
from datetime import datetime

import msgspec
from babel.support import NullTranslations

from infra.accounts import LinkCounter, Player, Players, SignInLink
from infra.accounts.vacations import Vacation, Vacations, days_of
from infra.channels.addresses import check_email
from infra.channels.devmail import DevMailbox
from infra.channels.mail import Mail, MailSender
from infra.presence import PresencePort, player_key, seat_key

from .handler import Gameplay
from .seat_names import check_player_name
from .timekeeper import come_back, go_away


def sign_in_mail(base: str, email: str, token: str, minutes: int, words: NullTranslations | None = None) -> Mail:
    """The sign-in mail, in the language of ``words`` (the ``server`` domain's translations; English without)."""
    words = words or NullTranslations()
    link = f"{base}/signin#token={token}"
    hello = words.gettext("Hello,")
    within = words.ngettext("to sign in to Magnate Server as {email}, open this link within {minutes} minute:",
                            "to sign in to Magnate Server as {email}, open this link within {minutes} minutes:",
                            minutes)
    once = words.gettext("It works once. If you did not ask to sign in, ignore this mail: nothing happens without "
                         "the link.")
    title = words.gettext("Sign in to Magnate Server")
    text = f"{hello}\n\n{fill(within, email=email, minutes=minutes)}\n\n{link}\n\n{once}\n"
    page = (f"<p>{html.escape(hello)}</p>"
            f"<p>{fill(html.escape(within), email=f'<b>{html.escape(email)}</b>', minutes=minutes)}</p>"
            f"<p><a href=\"{html.escape(link)}\">{html.escape(title)}</a></p><p>{html.escape(once)}</p>")
    return Mail(message_id=f"signin.{secrets.token_hex(12)}", to=email, subject=title, text=text, html=page)


def fill(template: str, **values: object) -> str:
    """A translated sentence with its ``{placeholders}`` filled (the catalog check keeps them as in English)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


class Allowance(msgspec.Struct, frozen=True):
    """A player's vacation allowance this year: days used, days left, and until when they are away (ISO 8601)."""

    used_days: int
    left_days: int
    away_until: str | None


class Accounts:
    def __init__(self, gameplay: Gameplay, players: Players, vacations: Vacations, presence: PresencePort,
                 mail: MailSender, link_limits: LinkCounter) -> None:
        self.gameplay = gameplay
        self.players = players
        self.vacations = vacations
        self.presence = presence
        self.mail = mail
        self.link_limits = link_limits

    # -- signing in --------------------------------------------------------------------------------------------

    async def issue_link(self, email: str, next_path: str, client: str, minutes: int, *, limited: bool
                         ) -> SignInLink:
        """A one-time sign-in link for ``email``, valid ``minutes``; with ``limited``, counted against the mailbox's
        and the client's share of links (TooManyLinks)."""
        if limited:
            await self.link_limits.count(email, client, minutes * 60)
        return await self.players.issue_link(email, next_path, minutes, limited=limited)

    async def send_link(self, address: str, next_path: str, client: str, minutes: int, base_url: str, *,
                        limited: bool, words: NullTranslations | None = None) -> str:
        """Mail ``address`` a one-time sign-in link valid ``minutes`` (its page under ``base_url``), in the language
        of ``words``; returns the address as normalized. InvalidEmail, TooManyLinks (with ``limited``),
        DeliveryFailed."""
        email = check_email(address)
        link = await self.issue_link(email, next_path, client, minutes, limited=limited)
        await self.send(sign_in_mail(base_url, email, link.token, minutes, words))
        return email

    async def send(self, mail: Mail) -> None:
        """Send a mail (DeliveryFailed)."""
        await self.mail.send(mail)

    @property
    def mailbox(self) -> DevMailbox | None:
        """The development mailbox, when mail is kept rather than sent."""
        return self.mail if isinstance(self.mail, DevMailbox) else None

    async def redeem(self, token: str) -> tuple[Player, str]:
        """The player a link signs in, and where it leads (LinkInvalid, LinkUsed, LinkExpired)."""
        return await self.players.redeem(token)

    async def player(self, player_id: str) -> Player | None:
        return await self.players.get(player_id)

    async def choose_language(self, player_id: str, language: str) -> Player | None:
        """Keep the language the player chose (the caller checked the service speaks it); None: no such player."""
        return await self.players.choose_language(player_id, language)

    async def rename(self, player_id: str, name: str) -> Player | None:
        """Change the name others see (ReservedName for one that reads as the computer's). Seats claimed before
        keep the name their claim recorded; seats claimed from now on show the new one."""
        check_player_name(name)
        return await self.players.rename(player_id, name)

    # -- vacations ---------------------------------------------------------------------------------------------

    async def allowance(self, player_id: str, allowance_days: int, now: datetime) -> Allowance:
        """What is used and left of this year's ``allowance_days``, and the vacation running now, if any."""
        taken = await self.vacations.of_year(player_id, now)
        used = sum(days_of(v) for v in taken)
        current = next((v for v in taken if v.ends_at > now), None)
        return Allowance(used, max(0, allowance_days - used), current.ends_at.isoformat() if current else None)

    async def take_vacation(self, player_id: str, days: int, allowance: int, now: datetime) -> tuple[Vacation, int]:
        """Start a vacation of ``days`` now (VacationTooLong, AlreadyAway) and pause the player's clock in every
        running game they sit at; with the number of clocks paused."""
        vacation = await self.vacations.take(player_id, days, allowance, now)
        until = int(vacation.ends_at.timestamp() * 1000)
        paused = 0
        for game_id, seat in await self.vacations.running_games(player_id):
            paused += await go_away(self.gameplay, game_id, seat, vacation.vacation_id, until)
        return vacation, paused

    async def end_vacation(self, player_id: str, now: datetime) -> tuple[Vacation | None, int]:
        """End the running vacation now (None when there is none) and let the player's paused clocks run again in
        every running game they sit at; with the number of clocks resumed."""
        vacation = await self.vacations.end(player_id, now)
        if vacation is None:
            return None, 0
        at = int(now.timestamp() * 1000)
        resumed = 0
        for game_id, seat in await self.vacations.running_games(player_id):
            resumed += await come_back(self.gameplay, game_id, seat, vacation.vacation_id, at)
        return vacation, resumed

    # -- presence ----------------------------------------------------------------------------------------------

    async def seat_here(self, game_id: str, seat: int, connection: str, ttl_s: float | None = None) -> None:
        """A page of ``seat`` is open (``connection``: the page's own id); refreshed at each keep-alive (``ttl_s``:
        how long it counts without one, when not the presence's own)."""
        await self.presence.here(seat_key(game_id, seat), connection, ttl_s)

    async def seat_gone(self, game_id: str, seat: int, connection: str) -> None:
        await self.presence.gone(seat_key(game_id, seat), connection)

    async def player_here(self, player_id: str, connection: str, ttl_s: float | None = None) -> None:
        await self.presence.here(player_key(player_id), connection, ttl_s)

    async def player_gone(self, player_id: str, connection: str) -> None:
        await self.presence.gone(player_key(player_id), connection)
