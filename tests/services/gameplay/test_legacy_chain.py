"""Games stored before commitments (chain 1: each hash over the payload itself) keep verifying, and while such a
game with hidden information runs, no viewer is shown its hashes (each would let it test candidates for a hand)."""

from __future__ import annotations

import uuid

import msgspec

from domain.decktet import GAME, GameOptions, SeatSpec
from domain.decktet.bots import RandomLegal
from domain.kernel import PUBLIC, Seat, tag_of
from infra.chain import LEGACY
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import export_lines, verify
from services.gameplay.queries import UNSHOWN

GAMES = {"decktet": GAME}


async def test_a_chain_1_game_verifies_and_hides_its_hashes_while_it_runs() -> None:
    gameplay = Gameplay(InMemoryEventStore(chain=LEGACY), RecordingJobQueue(), RecordingNotifier(), GAMES)
    game_id = (await gameplay.create_game("decktet", GameOptions(seats=(SeatSpec(), SeatSpec())),
                                          seed=b"legacy")).game_id
    policy, checked = RandomLegal(2), False
    while True:
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.finished:
            break
        if not checked and loaded.version > 10:
            for viewer in (PUBLIC, Seat(0)):
                shown = await gameplay.queries.visible_events(game_id, 0, viewer)
                assert shown.events and {(e.hash, e.prev_hash) for e in shown.events} == {(UNSHOWN, UNSHOWN)}
            checked = True
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
        else:
            await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))
    lines = await export_lines(gameplay, game_id)
    header = msgspec.json.decode(lines[0])
    assert "chain" not in header and all(b'"commitment"' not in line for line in lines)  # as exports were written
    verdict = verify(lines, GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands
    over = await gameplay.queries.visible_events(game_id, 0, PUBLIC)
    assert all(e.hash for e in over.events)  # after the end, the whole chain is shown
