"""Pure views of a battle: SVG pictures and plain-words narration, computed from state/events."""
