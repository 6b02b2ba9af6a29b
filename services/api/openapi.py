"""The OpenAPI document: what Litestar derives from the handlers, completed with what it cannot derive, so the
document states every constraint the server enforces and every response it sends.

- Request bodies are described by msgspec's own JSON Schema of the very types that decode them. Litestar's
  generator loses constraints msgspec enforces (the items of an ``Annotated[tuple[...], Meta(...)]`` become
  "anything", a constrained number that may also be ``null`` loses its bounds).
- The command endpoint reads its body raw (the command is decoded as the game's own player-command union once
  the game's type is known), so Litestar sees no body at all: its request body is the envelope with
  ``command`` as the union of every offered game's player commands.
- An optional number parameter loses a lower bound of 0 in Litestar's generator (it skips falsy bounds): the
  version parameters (:data:`VERSION_PARAMETERS`) state their bounds again.
- A parameter that is absent is "no value": its schema is the value's alone (Litestar adds ``null``, which a
  query string or a header cannot carry).
- A legal-command template's ``command`` is typed as the kernel's base ``Command``: it is one of the game's
  player commands.
- The answers that say when to come back (429, and 503 with an ``ErrorBody``) declare their ``Retry-After``.

Checked by ``tests/services/api/test_openapi_conformance.py`` (schemathesis against the app in-process).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from litestar.exceptions import ImproperlyConfiguredException
from litestar.openapi.spec import (
    Discriminator,
    OpenAPI,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Parameter,
    Reference,
    RequestBody,
    Schema,
)

from domain.kernel import GameModule
from services.gameplay.command_ids import START

from .chat_schemas import ChatRequest
from .clock_schemas import VacationRequest
from .plan_schemas import PlanRequest
from .player_schemas import LinkRequest, RenameRequest, SessionRequest
from .schemas import VERSION_MAX, CommandRequest, CreateGameRequest

COMPONENTS = "#/components/schemas/{name}"
COMMANDS_PATH = "/api/games/{game_id}/commands"
GAMES_PATH = "/api/games"
VERSION_PARAMETERS = frozenset({"at", "after", "Last-Event-ID"})
"""Parameters that are a game's version: 0 to VERSION_MAX, wherever they appear."""
REQUEST_TYPES: tuple[type[msgspec.Struct], ...] = (CreateGameRequest, CommandRequest, LinkRequest, SessionRequest,
                                                   RenameRequest, ChatRequest, VacationRequest, PlanRequest)
"""Request bodies documented from msgspec's schema (their nested structs come along)."""

_KEYS = {field.metadata.get("alias", field.name): field.name for field in dataclasses.fields(Schema)}
_ONE = {"items", "not", "contains", "if", "then", "else", "propertyNames", "additionalProperties"}
_MANY = {"allOf", "anyOf", "oneOf", "prefixItems"}
_NAMED = {"properties", "patternProperties"}


def schema_of(raw: Mapping[str, Any]) -> Schema | Reference:
    """A JSON Schema (a dict, as msgspec writes it) as Litestar's spec objects."""
    if "$ref" in raw:
        ref = Reference(ref=raw["$ref"])
        rest = {k: v for k, v in raw.items() if k != "$ref"}
        if not rest:
            return ref
        wrapped = schema_of(rest)
        assert isinstance(wrapped, Schema)
        wrapped.all_of = [ref]
        return wrapped
    fields: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _KEYS:
            raise ImproperlyConfiguredException(f"JSON Schema keyword {key!r} has no OpenAPI counterpart here")
        fields[_KEYS[key]] = _value_of(key, value)
    return Schema(**fields)


def _value_of(key: str, value: Any) -> Any:
    if key in _ONE:
        return value if isinstance(value, bool) else schema_of(value)
    if key in _MANY:
        return [schema_of(v) for v in value]
    if key in _NAMED:
        return {name: schema_of(v) for name, v in value.items()}
    if key == "type":
        return [OpenAPIType(v) for v in value] if isinstance(value, list) else OpenAPIType(value)
    if key == "discriminator":
        return Discriminator(property_name=value["propertyName"], mapping=value.get("mapping"))
    return value


RAW_FIELDS = {"command": "player_command_type", "options": "options_type"}
"""Request fields read raw and decoded as a type of the game the request is for: documented as that type, for
every game offered."""


def _request_components(games: Mapping[str, GameModule[Any]]) -> tuple[dict[str, Schema | Reference], set[str]]:
    """The components of the request bodies, and the names of those that replace Litestar's."""
    _, bodies = msgspec.json.schema_components(REQUEST_TYPES, ref_template=COMPONENTS)
    raw_types = {field: [getattr(game, attr) for game in games.values()] for field, attr in RAW_FIELDS.items()}
    raw_types["plan"] = [game.plans.plan_type for game in games.values() if game.plans is not None]  # a seat's plan
    unions, components = msgspec.json.schema_components([t for ts in raw_types.values() for t in ts],
                                                        ref_template=COMPONENTS)
    components.update(bodies)
    by_field = dict(zip(raw_types, _chunks(list(unions), [len(ts) for ts in raw_types.values()]), strict=True))
    for body in REQUEST_TYPES:
        properties = components[body.__name__]["properties"]
        for field, schemas in by_field.items():
            if field in properties and schemas:
                properties[field] = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
        if "game" in properties:
            properties["game"]["enum"] = sorted(games)  # the games offered
    components[CreateGameRequest.__name__] = _create_by_game(components[CreateGameRequest.__name__], games,
                                                             by_field["options"])
    envelope = components[CommandRequest.__name__]["properties"]
    envelope["command"]["description"] = ("One of the game's player commands, tagged by `type` (the `legal` "
                                          "templates of `/me` show them pre-filled).")
    envelope["command_id"]["not"] = {"const": START}  # the creation's id, though in the client alphabet
    # a legal-command template's command (``domain.kernel.Command``, the base of every game's commands) is one of
    # the games' player commands
    components["Command"] = by_field["command"][0] if len(games) == 1 else {"anyOf": by_field["command"]}
    return {name: schema_of(raw) for name, raw in components.items()}, {*bodies, "Command"}


def _create_by_game(body: dict[str, Any], games: Mapping[str, GameModule[Any]],
                    options: list[Any]) -> dict[str, Any]:
    """A create request is one of the offered games' with that game's options (``game`` names which; a body
    without it creates the default game): one alternative per game, so no game's options pass for another's."""
    if len(games) == 1:
        return body
    default = next(f.default for f in msgspec.structs.fields(CreateGameRequest) if f.name == "game")
    alternatives = []
    for (name, game), schema in zip(games.items(), options, strict=True):
        properties = {**body["properties"], "options": schema, "game": {**body["properties"]["game"], "enum": [name]}}
        required = [*body.get("required", []), *([] if name == default else ["game"])]
        alternatives.append({**body, "title": f"A new game of {game.title or name}", "properties": properties,
                             "required": required})
    return {"title": body.get("title", CreateGameRequest.__name__), "description": body.get("description", ""),
            "oneOf": alternatives}


def _chunks(items: list[Any], sizes: list[int]) -> list[list[Any]]:
    out, at = [], 0
    for size in sizes:
        out.append(items[at:at + size])
        at += size
    return out


def _without_null(schema: Schema) -> Schema:
    """``schema`` without its ``null`` alternative (``oneOf [X, null]`` -> X, keeping the outer keywords)."""
    null = Schema(type=OpenAPIType.NULL)
    if schema.one_of and null in schema.one_of:
        rest = [option for option in schema.one_of if option != null]
        if len(rest) == 1 and isinstance(rest[0], Schema):
            outer = {f.name: getattr(schema, f.name) for f in dataclasses.fields(Schema)
                     if f.name != "one_of" and getattr(schema, f.name) is not None}
            return dataclasses.replace(rest[0], **{k: v for k, v in outer.items() if getattr(rest[0], k) is None})
    if isinstance(schema.type, list) and OpenAPIType.NULL in schema.type:
        kinds = [t for t in schema.type if t != OpenAPIType.NULL]
        enum = [v for v in schema.enum] if schema.enum is not None else None
        return dataclasses.replace(schema, type=kinds[0] if len(kinds) == 1 else kinds,
                                   enum=[v for v in enum if v is not None] if enum is not None else None)
    return schema


def _operations(openapi: OpenAPI) -> Iterable[Any]:
    for item in (openapi.paths or {}).values():
        for method in ("get", "put", "post", "delete", "options", "head", "patch", "trace"):
            operation = getattr(item, method, None)
            if operation is not None:
                yield operation


def _is_error_body(response: OpenAPIResponse | Reference) -> bool:
    if not isinstance(response, OpenAPIResponse) or not response.content:
        return False
    media = response.content.get("application/json")
    return media is not None and isinstance(media.schema, Reference) and media.schema.ref.endswith("/ErrorBody")


RETRY_AFTER = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.INTEGER, minimum=1), required=True,
    description="Seconds to wait before retrying (also in `details.retry_after_s`).",
)


def complete(openapi: OpenAPI, games: Mapping[str, GameModule[Any]]) -> OpenAPI:
    """Complete Litestar's document in place (see the module's docstring); returns it."""
    schemas = openapi.components.schemas
    ours, replaced = _request_components(games)
    clashes = sorted(name for name in ours if name in schemas and name not in replaced)
    if clashes:
        raise ImproperlyConfiguredException(f"OpenAPI component names used twice: {clashes}")
    schemas.update(ours)  # type: ignore[arg-type]  # components hold references too (OpenAPI 3.1)

    for path, body in ((COMMANDS_PATH, CommandRequest), (GAMES_PATH, CreateGameRequest)):
        operation = (openapi.paths or {})[path].post
        assert operation is not None
        operation.request_body = RequestBody(  # read raw by the handler: Litestar sees no body
            content={"application/json": OpenAPIMediaType(schema=Reference(ref=COMPONENTS.format(name=body.__name__)))},
            required=True,
        )
    for operation in _operations(openapi):
        for parameter in operation.parameters or ():
            if not isinstance(parameter, Parameter) or not isinstance(parameter.schema, Schema):
                continue
            parameter.schema = _without_null(parameter.schema)
            if parameter.name in VERSION_PARAMETERS and parameter.schema.type == OpenAPIType.INTEGER:
                parameter.schema.minimum, parameter.schema.maximum = 0, VERSION_MAX
        for status, response in (operation.responses or {}).items():
            if status in {"429", "503"} and _is_error_body(response):
                response.headers = {**(response.headers or {}), "Retry-After": RETRY_AFTER}
    return openapi
