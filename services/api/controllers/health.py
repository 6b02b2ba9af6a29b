"""Liveness and readiness: can this process reach PostgreSQL and Redis right now?"""

from __future__ import annotations

from litestar import Response, get
from litestar.openapi import ResponseSpec

from ..deps import HealthDep
from ..schemas import HealthOut


@get("/health", tags=["health"], summary="Liveness and readiness",
     responses={503: ResponseSpec(HealthOut, description="PostgreSQL or Redis is unreachable")})
async def health(health: HealthDep) -> Response[HealthOut]:
    database, redis = await health.reachable()
    ok = database and redis
    return Response(HealthOut("ok" if ok else "unavailable", database, redis), status_code=200 if ok else 503)
