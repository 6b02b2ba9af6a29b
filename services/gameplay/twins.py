"""A runtime of in-memory twins: every service the composition root builds (:class:`.bootstrap.Runtime`), over the
twin of each port instead of PostgreSQL and Redis, with no connection anywhere. The API's tests run on it
(tests/services/api); each twin passes its real adapter's contract suite (tests/integration).

Nothing runs the queued jobs: a test does the worker's part (``Gameplay.run_system``), as it does against a real
queue no worker reads. The probes answer for stores that live in the process; the rate limits and the signed-in
pages' sessions are Litestar's :class:`~litestar.stores.memory.MemoryStore`, one per name, shared by every app built
over the runtime (as the real ones are shared through Redis and PostgreSQL)."""

from __future__ import annotations

from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore

from infra.accounts import InMemoryLinkLimits, InMemoryPlayerStore
from infra.accounts.erasure import InMemoryErasure
from infra.accounts.vacations import InMemoryVacations
from infra.channels.devmail import InMemoryDevMailbox
from infra.channels.mail import MailSender, NoMail, SmtpSender
from infra.chat import InMemoryChatStore
from infra.config import Settings
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.memory_tables import InMemoryTables
from infra.memory_news import InMemoryNotifier
from infra.memory_queue import InMemoryJobQueue
from infra.notes import InMemoryNotes
from infra.notifications.dispatch import RecordingDispatch
from infra.notifications.memory import InMemoryNotificationStore
from infra.notify import InMemoryBroadcast
from infra.plans import InMemorySeatPlans
from infra.presence import InMemoryPresence
from infra.probes import in_process_ok
from infra.ratings import InMemoryRatings
from services.notifications.context import assemble
from services.ratings import RatingService

from .accounts import Accounts
from .bootstrap import Runtime
from .chat import Chat
from .handler import Gameplay
from .health import Health
from .mine import MyGames
from .my_data import MyData
from .notes import PrivateNotes
from .plans import SeatPlanning
from .registry import games_of
from .seating import Seating
from .tables import Tables


def mail_of(settings: Settings) -> MailSender:
    """As :func:`infra.channels.mail.mail_sender`: SMTP when ``SMTP_URL`` is set, else the development mailbox (kept
    in memory) when asked for, else no mail."""
    if settings.smtp_url:
        return SmtpSender(settings.smtp_url, settings.mail_from)
    return InMemoryDevMailbox(settings.mail_from) if settings.dev_mailbox else NoMail()


class TwinRuntime(Runtime):
    """A :class:`Runtime` whose adapters are the in-memory twins (``events``, ``queue``: the event store and the job
    queue, for tests that look behind the services)."""

    def __init__(self, settings: Settings) -> None:  # the twins, not the parent's connections
        self.events = InMemoryEventStore()
        self.queue = InMemoryJobQueue()
        self.notifier = news = InMemoryNotifier()
        gameplay = Gameplay(self.events, self.queue, news, games_of(settings), snapshot_every=settings.snapshot_every,
                            system_chain=settings.system_chain)
        self.gameplay = gameplay
        broadcast = InMemoryBroadcast()
        self.players = InMemoryPlayerStore()
        self.vacations = InMemoryVacations(self.events)
        self.presence = InMemoryPresence(settings.presence_s)
        self.mail = mail_of(settings)
        inbox = InMemoryNotificationStore()
        self.notifications = assemble(settings, inbox, RecordingDispatch(), self.presence, gameplay, self.mail)
        self.ratings = RatingService(gameplay, InMemoryRatings(self.events, self.players))
        self.notifications.projector.on_over = self.ratings.game_over
        self.seating = Seating(gameplay, broadcast)
        self.accounts = Accounts(gameplay, self.players, self.vacations, self.presence, self.mail,
                                 InMemoryLinkLimits())
        chat = InMemoryChatStore()
        self.chat = Chat(gameplay, chat, broadcast)
        self.tables = Tables(gameplay, self.seating, InMemoryTables(self.events))
        self.my_games = MyGames(gameplay, broadcast)
        notes = InMemoryNotes(self._known_game)
        self.notes = PrivateNotes(gameplay, notes)
        self.my_data = MyData(gameplay, notes, self.vacations, self.notifications,
                              InMemoryErasure(self.players, self.events, self.vacations, notes, chat, inbox),
                              lambda: getattr(self, "ratings", None))
        self.planning = SeatPlanning(gameplay, InMemorySeatPlans(self._known_game), self.queue)
        self.health = Health(in_process_ok, in_process_ok, self.queue.depth)
        self._stores: dict[str, Store] = {}

    async def _known_game(self, game_id: str) -> bool:
        return game_id in self.events.records()

    def session_store(self) -> Store:
        return self._stores.setdefault("sessions", MemoryStore())

    def counters(self, namespace: str) -> Store:
        return self._stores.setdefault(f"counters:{namespace}", MemoryStore())

    async def close(self) -> None:
        await self.notifications.aclose()
        await self.notifier.aclose()


def in_memory(settings: Settings) -> Runtime:
    """Every service of the runtime over in-memory twins: no PostgreSQL, no Redis, nothing to close but a client."""
    return TwinRuntime(settings)
