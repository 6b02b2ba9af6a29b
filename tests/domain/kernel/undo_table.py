"""A game driven as the service drives it, keeping the log's entries (version, actor, command id, event) that a
takeback request is judged on (``table.undo_ask``), and the state before each command."""

from __future__ import annotations

from typing import Any

from domain.kernel import SYSTEM, Actor, Chance, GameModule, Seat, commitment_of
from domain.kernel.table import Entry, OpenTable, TableOptions, fold_log, needs_log, step_with_log


class UndoTable:
    def __init__(self, game: GameModule[Any], options: Any, seed: bytes, table: TableOptions | None = None) -> None:
        self.game = game
        self.seed = seed
        self.state: Any = game.initial_state()
        self.log: list[Entry] = []
        self.commands: list[tuple[int, Actor, Any, Any]] = []
        """(first version, actor, command, the state before it) of every command that made events."""
        self.run(SYSTEM, game.start(options, commitment_of(seed)))
        if table is not None:
            self.run(SYSTEM, OpenTable(options=table))

    @property
    def version(self) -> int:
        return len(self.log)

    def run(self, actor: Actor, command: Any) -> list[Any]:
        version = self.version + 1
        chance = Chance(self.seed, version)
        if needs_log(command):
            events, state = step_with_log(self.game, self.state, actor, command, chance, self.log)
        else:
            events, state = self.game.step(self.state, actor, command, chance)
        if events:
            self.commands.append((version, actor, command, self.state))
        command_id = f"c{len(self.commands)}"
        self.log += [Entry(version + i, actor, command_id, e) for i, e in enumerate(events)]
        self.state = state
        return events

    def refolded(self) -> Any:
        """The whole log folded from the start (what a process that holds nothing loads)."""
        return fold_log(self.game.evolve, self.game.initial_state(), ((e.version, e.event) for e in self.log), 0)

    def replayed(self) -> bool:
        """Every command decided again on the fold of the log before it gives exactly its events (``verify``)."""
        again = UndoTable.__new__(UndoTable)
        again.game, again.seed, again.state, again.log, again.commands = self.game, self.seed, \
            self.game.initial_state(), [], []
        for _, actor, command, _ in self.commands:
            again.run(actor, command)
        return [(e.version, e.event) for e in again.log] == [(e.version, e.event) for e in self.log] \
            and again.state == self.state

    def auto(self, bot: str = "random", salt: int = 0) -> Actor:
        """Run the next due command: the system's, or a seat's bot move; returns who acted."""
        due = self.game.pending(self.state)
        if due.system is not None:
            self.run(SYSTEM, due.system)
            return SYSTEM
        seat = due.seats[(self.version + salt) % len(due.seats)]
        self.run(seat, self.game.bots[bot](self.version * 7919 + salt)(self.state, Seat(seat)))
        return seat
