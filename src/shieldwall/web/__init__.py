"""``shieldwall serve``: play in the browser against a bot or a friend (FastAPI + SQLite).

``create_app(db_path)`` is imported lazily so that ``import shieldwall.web`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(db_path: Any, limits: Any = None) -> FastAPI:
    from shieldwall.web.app import create_app as _create

    return _create(db_path, limits)


__all__ = ["create_app"]
