"""The unit SPEC of the into-the-dark odds: ``FIGURES CODE QUALITY [OPTION ...]``.

For example ``"12 CAF average"``, ``"16 LUF levy bow"``, ``"8 LMM elite cross-trained javelin"``.

* FIGURES: the unit's figures, formed in two ranks ("a two rank deep line", Formations); all of
  them fight. Casualties come off the rear rank first; a disordered unit fights with its front rank
  only in melee (movement.disorder). It is also the unit's original strength for the casualty
  morale modifier.
* CODE: density C/L/O, armour U/P/A/M/E, F (foot) or M (mounted) ("Troop Types").
* QUALITY: peasant, levy, average, elite, fanatic.
* OPTIONs: ``cross-trained``; a missile weapon ``bow``, ``sling`` or ``javelin`` (a unit with one
  is missile troops unless cross-trained); the special troops and SWAT options of the army file
  ``longbow``, ``crossbow``, ``heavy-crossbow``, ``polearm``, ``pike``, ``shieldwall``, ``warband``,
  ``skirmisher``, ``peasant``, ``no-shield``. The unit is checked exactly as an army file's unit
  (``army.check_unit``, :func:`.sides.side`). A unit with ``shieldwall`` is taken to be *in*
  shieldwall unless it is disordered ("Disordered units may not be in shieldwall").

Plain data: imports no rules module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from shieldwall.core.errors import ShieldwallError, UnknownName

RS = "into-the-dark"

QUALITIES = ("peasant", "levy", "average", "elite", "fanatic")
WEAPONS = ("bow", "sling", "javelin")
UNIT_OPTIONS = (
    "longbow",
    "crossbow",
    "heavy-crossbow",
    "polearm",
    "pike",
    "shieldwall",
    "warband",
    "skirmisher",
    "peasant",
    "no-shield",
)
BOW_OPTIONS = ("longbow", "crossbow", "heavy-crossbow")
OPTIONS = ("cross-trained", *WEAPONS, *UNIT_OPTIONS)


SPEC_HELP = (
    "FIGURES CODE QUALITY [OPTION ...], e.g. '12 CAF average'. FIGURES: the unit's figures, in two ranks, "
    "all fighting (and its original strength). CODE: density C/L/O + armour U/P/A/M/E + F foot / M "
    "mounted. QUALITY: "
    + ", ".join(QUALITIES)
    + ". OPTIONs: cross-trained; a missile weapon "
    + ", ".join(WEAPONS)
    + " (missile troops unless cross-trained); "
    + ", ".join(UNIT_OPTIONS)
    + ". Checked like a unit of an army file; a shieldwall unit is in shieldwall unless disordered."
)


@dataclass(frozen=True, slots=True)
class ITDSpec:
    """A parsed into-the-dark SPEC."""

    figures: int
    code: str
    quality: str
    weapon: str | None = None
    cross_trained: bool = False
    options: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        parts = [str(self.figures), self.code, self.quality]
        if self.cross_trained:
            parts.append("cross-trained")
        if self.weapon:
            parts.append(self.weapon)
        return " ".join([*parts, *self.options])

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=512)
def parse_spec(text: str) -> ITDSpec:
    """Parse ``FIGURES CODE QUALITY [OPTION ...]`` (case-insensitive; commas allowed).

    >>> parse_spec("12 caf Average, shieldwall")
    ITDSpec(figures=12, code='CAF', quality='average', weapon=None, cross_trained=False, \
options=('shieldwall',))
    >>> parse_spec("12 CAF brave")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shieldwall.core.errors.UnknownName: unknown quality 'brave'; valid choices: peasant, levy, ...
    """
    tokens = str(text).replace(",", " ").split()
    if len(tokens) < 3:
        raise ShieldwallError(f"unit SPEC {text!r} is too short; expected {SPEC_HELP}")
    try:
        figures = int(tokens[0])
    except ValueError:
        raise ShieldwallError(
            f"unit SPEC {text!r} must start with the number of figures, e.g. '12 CAF average'"
        ) from None
    if not 1 <= figures <= 1000:
        raise ShieldwallError(f"unit SPEC {text!r}: figures must be 1..1000")
    code = tokens[1].upper()
    if len(code) != 3 or code[0] not in "CLO" or code[1] not in "UPAME" or code[2] not in "FM":
        raise ShieldwallError(
            f"unit SPEC {text!r}: code {tokens[1]!r} must be density C/L/O + armour U/P/A/M/E "
            "+ F (foot) or M (mounted)"
        )
    quality = tokens[2].lower()
    if quality not in QUALITIES:
        raise UnknownName("quality", tokens[2], QUALITIES)
    weapon: str | None = None
    cross = False
    opts: list[str] = []
    for tok in tokens[3:]:
        o = tok.lower().replace("_", "-")
        if o not in OPTIONS:
            raise UnknownName("unit option", tok, OPTIONS)
        if o in opts or (o == "cross-trained" and cross) or o == weapon:
            raise ShieldwallError(f"unit SPEC {text!r}: option {o!r} given twice")
        if o == "cross-trained":
            cross = True
        elif o in WEAPONS:
            if weapon is not None:
                raise ShieldwallError(f"unit SPEC {text!r}: one missile weapon only ({weapon} and {o})")
            weapon = o
        else:
            opts.append(o)
    return ITDSpec(figures, code, quality, weapon, cross, tuple(opts))
