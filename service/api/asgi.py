"""The ASGI entry point for servers: `uvicorn service.api.asgi:app`."""

from __future__ import annotations

from service.api.app import create_app

app = create_app()
