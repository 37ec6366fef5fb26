"""Ruleset-agnostic parts: dice, geometry, hex grid, terrain, events, errors, the Game/State API."""
