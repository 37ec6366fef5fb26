"""Bots. They see a battle only through the public State API (legal_orders, apply, view, copy)."""

from __future__ import annotations

from shieldwall.ai.base import Bot, bot_names, check_bot, make_bot

__all__ = ["Bot", "bot_names", "check_bot", "make_bot"]
