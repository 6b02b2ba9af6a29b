"""Replaying an export through the rules: every command re-decided, byte-identical events required.

With the seed (a finished game) each decision draws from ``Chance(seed, first_version)``, as the service
did, so every die, card and tile is re-derived and every command shown legal. Without it (a running game)
a decision that draws cannot be re-derived yet: :class:`SealedChance` stops it at its first draw, and its
recorded events (whose hash chain was checked) are taken as they are; every other decision, which is every
player command in Magnate, is still re-decided. Besides legality, the rules' own schedule is enforced: the
setup first, a system command only where the rules call for exactly that command (the service runs nothing
else), and after the end of the game only the reveal of the header's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import SYSTEM, Actor, Chance, GameError, GameModule, Seat, commitment_of, fold
from domain.kernel.table import TABLE_PREFIX, needs_log, step_with_log
from domain.kernel.table import Entry as Logged
from infra.codec import GameCodec

from .audit_form import as_recorded
from .audit_lines import Entry, GameLine, Group, Problems, reason, shown


class SeedNeeded(Exception):
    """A decision drew chance while the seed is still secret."""


class SealedChance(Chance):
    """The chance source of a decision replayed without the seed: any draw stops the decision."""

    __slots__ = ()

    def __init__(self, version: int) -> None:
        super().__init__(b"sealed", version)

    def _next(self) -> int:
        raise SeedNeeded


@dataclass(slots=True)
class Replay:
    replayed: int = 0
    """Decisions re-decided and found to give exactly their events."""
    waiting: int = 0
    """Decisions that drew chance without the seed: taken as recorded."""
    finished: bool = False
    """The log reaches the end of the game."""
    revealed: bool = False
    """... and the reveal of the header's seed follows the end."""
    seats: int = 0
    """How many seats the game has (where the log ends)."""


def replay(
    header: Entry[GameLine], groups: list[Group], commands: list[Any], game: GameModule[Any], problems: Problems
) -> Replay:
    """Replay a log whose shape and chain were checked; the first problem stops it (the states after it
    would be guesses)."""
    return _Replayer(header, game, problems).run(groups, commands)


class _Replayer:
    def __init__(self, header: Entry[GameLine], game: GameModule[Any], problems: Problems) -> None:
        self.header = header
        self.game = game
        self.codec = GameCodec(game)
        self.problems = problems
        self.seed = bytes.fromhex(header.line.seed) if header.line.seed is not None else None
        self.state: Any = game.initial_state()
        self.result = Replay()
        self.history: list[Logged] = []
        """The log replayed so far, each event with its actor and command: what a takeback is judged on."""

    def run(self, groups: list[Group], commands: list[Any]) -> Replay:
        if groups and not self._commitment_kept(groups[0]):
            return self.result
        for index, (group, command) in enumerate(zip(groups, commands, strict=True)):
            actor = _actor(group.command.line.actor)
            try:
                moved_on = self._due(index, group, actor) and self._decide(group, actor, command)
            except Exception as exc:  # a tampered command, or a state folded from events the rules never made
                self.problems.add(group.command.where, f"command breaks the rules ({type(exc).__name__}: "
                                                       f"{shown(str(exc), 200)})")
                return self.result
            if not moved_on:
                return self.result
        try:
            self.result.finished = self.game.pending(self.state).finished
            self.result.seats = len(self.game.seats(self.state))
        except Exception as exc:  # the same, after the last command
            self.problems.add(self.header.where, f"status cannot be told: the rules fail on the final state "
                                                 f"({type(exc).__name__}: {shown(str(exc), 200)})")
        return self.result

    def _commitment_kept(self, setup: Group) -> bool:
        """The seed against the commitment the first event published, before any draw from it: a wrong seed
        would otherwise show as every outcome of the setup being different. (A game whose first event has
        no ``seed_commitment`` relies on its reveal rule, which checks the same.)"""
        if self.seed is None or not setup.events:
            return True
        first = self._decoded(setup)
        if first is None:
            return False
        published = getattr(first[0], "seed_commitment", None)
        if published is not None and published != commitment_of(self.seed):
            self.problems.add(self.header.where, "seed does not match the commitment published in event 1")
            return False
        return True

    def _due(self, index: int, group: Group, actor: Actor) -> bool:
        """Whether the rules allow this command here at all (before asking them to decide it)."""
        where, raw = group.command.where, bytes(group.command.line.command)
        if index == 0:
            if actor != SYSTEM:
                self.problems.add(where, "actor must be system: a game starts with the system's setup")
            return actor == SYSTEM
        due = self.game.pending(self.state)
        if due.finished:
            return self._reveal(group, actor)
        if actor == SYSTEM and group.command.line.type.startswith(TABLE_PREFIX):
            return True  # the table's own commands (a seat claimed) come when they come; the rules judge them
        if actor == SYSTEM:
            if due.system is None:
                self.problems.add(where, "actor is system, but the rules wait for a seat here")
                return False
            if not as_recorded(self.codec.encode(due.system), raw, self._system_command, self.codec.encode):
                self.problems.add(where, f"command is not what the rules call for here ({self.codec.tag(due.system)})")
                return False
            return True
        seats = len(self.game.seats(self.state))
        if actor >= seats:
            self.problems.add(where, f"actor {group.command.line.actor} is not a seat of this game ({seats} seats)")
            return False
        return True

    def _system_command(self, raw: bytes) -> Any:
        return self.codec.decode_command(raw, system=True)

    def _reveal(self, group: Group, actor: Actor) -> bool:
        """After the end only the reveal of the header's seed may follow (the service appends it at once)."""
        seed = self.header.line.seed
        if seed is None:
            self.problems.add(self.header.where, "seed is missing, but the log reaches the end of the game")
            return False
        reveal = self.codec.encode(self.game.reveal(seed))
        if actor != SYSTEM or bytes(group.command.line.command) != reveal:
            self.problems.add(group.command.where, "command follows the end of the game, where only the reveal of "
                                                   "the header's seed may")
            return False
        self.result.revealed = True
        return True

    def _decide(self, group: Group, actor: Actor, command: Any) -> bool:
        where, version = group.command.where, group.command.line.first_version
        chance = Chance(self.seed, version) if self.seed is not None else SealedChance(version)
        try:
            if needs_log(command):
                produced, after = step_with_log(self.game, self.state, actor, command, chance, self.history)
            else:
                produced, after = self.game.step(self.state, actor, command, chance)
        except SeedNeeded:
            return self._take_recorded(group)
        except GameError as exc:
            self.problems.add(where, f"command is refused by the rules: {shown(str(exc), 200)}")
            return False
        if not self._same(group, produced):
            return False
        self._remember(group, actor, produced)
        self.state = after
        self.result.replayed += 1
        return True

    def _same(self, group: Group, produced: list[Any]) -> bool:
        recorded = [(bytes(e.line.payload), e.line.type) for e in group.events]
        mine = [(self.codec.encode(e), self.codec.tag(e)) for e in produced]

        def same(pair: tuple[tuple[bytes, str], tuple[bytes, str]]) -> bool:
            (canonical, tag), (stored, stored_tag) = pair
            return tag == stored_tag and as_recorded(canonical, stored, self.codec.decode_event, self.codec.encode)

        if len(mine) == len(recorded) and all(map(same, zip(mine, recorded, strict=True))):
            return True
        drawn = " with the header's seed" if self.seed is not None else ""
        differ = next((i for i, pair in enumerate(zip(mine, recorded, strict=False)) if not same(pair)), None)
        if differ is None:
            text = f"command gives {len(mine)} events by the rules{drawn}, the export has {len(recorded)}"
        else:
            event = group.events[differ]
            text = f"command gives other events by the rules{drawn}: {event.where} differs"
        self.problems.add(group.command.where, text)
        return False

    def _take_recorded(self, group: Group) -> bool:
        """A decision that needs the seed: its recorded events move the game on, unchecked by the rules."""
        events = self._decoded(group)
        if events is None:
            return False
        self.state = fold(self.game.evolve, events, self.state)  # (if the rules break on them, run() says so)
        self._remember(group, _actor(group.command.line.actor), events)
        self.result.waiting += 1
        return True

    def _remember(self, group: Group, actor: Actor, events: list[Any]) -> None:
        line = group.command.line
        self.history += [Logged(line.first_version + i, actor, line.command_id, event)
                         for i, event in enumerate(events)]

    def _decoded(self, group: Group) -> list[Any] | None:
        """The recorded events of a command, decoded; their types must be their payloads' tags."""
        decoded: list[Any] = []
        for entry in group.events:
            try:
                event = self.codec.decode_event(bytes(entry.line.payload))
            except (ValueError, RecursionError) as exc:
                self.problems.add(entry.where, f"payload is not an event of {self.game.name}: {reason(exc)}")
                return None
            if self.codec.tag(event) != entry.line.type:
                self.problems.add(entry.where, f"type {shown(entry.line.type)} is not its payload's")
                return None
            decoded.append(event)
        return decoded


def _actor(text: str) -> Actor:
    """An actor as the rules know it (the text was checked to be "system" or "seat:<n>")."""
    return SYSTEM if text == "system" else Seat(int(text.removeprefix("seat:")))
