"""The OpenAPI document is what the API enforces and sends: schemathesis generates requests from the document
(valid ones, and invalid ones the server must refuse) against the app in-process, on a runtime of in-memory
twins, and checks every response against the document.

It runs schemathesis's engine (what ``schemathesis run`` runs) on the ASGI app: the examples, coverage
(boundaries and every kind of invalid value, deterministically) and fuzzing phases, with every check enabled:
no server error, every status documented, the documented content type, body and headers, schema-violating
requests refused with a 4xx, schema-valid ones accepted or refused only for a reason the schema cannot state
(401/403/404 for a token or a game, 409 for a race, 422 for a rule of the game), and the rest of its built-in
checks. Requests name a real game and carry the token of one of its seats (the unknown ones are tested by the
other modules), so the checks reach the handlers, not just the 404.

The budget is bounded (``MAX_EXAMPLES`` per operation and phase, no shrinking, ``MAX_TIME_S``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import schemathesis
from schemathesis.engine import Status, StopReason, events, from_schema
from schemathesis.python import asgi

from infra.config import Settings
from services.api import create_app
from services.gameplay.twins import in_memory

from .table import game_body

MAX_EXAMPLES = 10
MAX_TIME_S = 20
"""The fuzzing phase draws new cases until this budget is spent (the examples and coverage phases run first, whole)."""
STREAM = r"/stream$"
"""The event stream is left out: a stream with nothing new stays open until its keep-alive, so each request would
take seconds (its statuses and error bodies are checked by test_stream and test_limits over a real connection)."""


def config(game_id: str, token: str) -> schemathesis.Config:
    return schemathesis.Config.from_dict({
        "max-time": MAX_TIME_S,
        "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "no-shrink": True, "deterministic": True,
                       "database": "none"},
        "phases": {"stateful": {"enabled": False}},  # one game, no links between operations to follow
        "checks": {
            # a command or options the rules refuse (422), a race (409), a seat's token or view (401/403)
            "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422"]},
        },
        "parameters": {"path.game_id": game_id},
        "auth": {"openapi": {"seatToken": {"bearer": token}}},
    })


def failures(stream: Any, operations: set[str]) -> list[str]:
    """Every failed check and every error of a run, described; and every operation the coverage phase missed."""
    found: list[str] = []
    covered: set[str] = set()
    for event in stream:
        if isinstance(event, events.ScenarioFinished) and event.phase.name == "COVERAGE":
            covered.add(event.label)
        if isinstance(event, events.ScenarioFinished) and event.status in {Status.FAILURE, Status.ERROR}:
            recorder = event.recorder
            for case_id, checks in recorder.checks.items():
                for check in checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        interaction = recorder.interactions.get(case_id)
                        answer = interaction.response if interaction is not None else None
                        found.append(
                            f"{event.label} [{event.phase.name}] {check.name}: {failure.title}: {failure.message}\n"
                            f"    {recorder.cases[case_id].value.as_curl_command()}\n"
                            f"    -> {answer.status_code if answer else '?'} "
                            f"{answer.content[:300]!r}" if answer else ""
                        )
            if event.status == Status.ERROR:
                found.append(f"{event.label}: error")
        elif isinstance(event, events.EngineFinished) and event.stop_reason not in {StopReason.COMPLETED,
                                                                                    StopReason.MAX_TIME}:
            found.append(f"the run did not complete: {event.stop_reason}")
        elif isinstance(event, (events.NonFatalError, events.FatalError)):
            found.append(f"{getattr(event, 'label', '')}: {getattr(event, 'value', event)!r}")
    found.extend(f"{label}: not reached by the coverage phase" for label in sorted(operations - covered))
    return found


def test_the_api_conforms_to_its_openapi_document(settings: Settings) -> None:
    runtime = in_memory(settings)  # nothing connects: it can be made outside schemathesis's event loop
    app = create_app(settings, runtime)
    try:
        with asgi.get_client(app) as client:
            created = client.post("/api/games", json=game_body([{}, {}, {"kind": "ai"}],
                                                               difficulty="digital_assistant"))
            assert created.status_code == 201, created.text
        game = created.json()
        schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app,
                                                config=config(game["game_id"], game["seats"][0]["token"]))
        schema = schema.exclude(path_regex=STREAM)
        operations = {result.ok().label for result in schema.get_all_operations()}
        assert len(operations) >= 9, operations
        found = failures(from_schema(schema).execute(), operations)
    finally:
        asgi.shutdown_lifespans()
        asyncio.run(runtime.close())
    assert not found, "\n".join(found)
