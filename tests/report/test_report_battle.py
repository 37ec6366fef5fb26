"""``shieldwall report-battle``: a standalone HTML report of a saved battle, for every rule system.

For a seeded battle of each built-in rule system (saved by ``shieldwall battle --save``) the report
is parsed: a map per turn drawn through the rule system's drawing (with the report's marks), the
turn's narrative and key dice, the losses chart, the title block, and no external request at all.
A broken or tampered save is a one-line error naming the file (exit 2, no traceback).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from shieldwall import registry
from shieldwall.cli import run

BUILT_IN = {"one-hour-dark-ages", "into-the-dark", "knight-hack", "spi-dark-ages", "dbm-3.2"}


def _scenario(rid: str) -> str:
    rs = registry.get(rid)
    stem = rs.default_scenario or next(iter(rs.scenario_files()))
    return f"{rid}/{stem}"


class _Page(HTMLParser):
    """What the tests look at: the sections, the maps, the narrative lines, every URL."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.turns: list[str] = []
        self.maps: dict[str, int] = {}
        self.marks: dict[str, int] = {}
        self.lines: dict[str, int] = {}
        self.dice_rows: dict[str, int] = {}
        self.urls: list[str] = []
        self.tags: set[str] = set()
        self.classes: set[str] = set()
        self.text: list[str] = []

    def _turn(self) -> str | None:
        for tag, attrs in reversed(self.stack):
            if tag == "section" and "turn" in attrs.get("class", "").split():
                return attrs.get("id")
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        self.classes.update(a.get("class", "").split())
        for k, v in a.items():
            if k in ("href", "src", "xlink:href", "action", "data") or "url(" in v:
                self.urls.append(v)
        if tag == "section" and "turn" in a.get("class", "").split():
            self.turns.append(a["id"])
        turn = self._turn()
        if turn is not None:
            cls = a.get("class", "").split()
            if tag == "svg" and "shieldwall-board" in cls:
                self.maps[turn] = self.maps.get(turn, 0) + 1
            if tag == "g" and "report-marks" in cls:
                self.marks[turn] = self.marks.get(turn, 0) + 1
            if tag == "li" and any(t == "ol" and "narrative" in at.get("class", "") for t, at in self.stack):
                self.lines[turn] = self.lines.get(turn, 0) + 1
            if tag == "tr" and any(t == "table" and "dice" in at.get("class", "") for t, at in self.stack):
                self.dice_rows[turn] = self.dice_rows.get(turn, 0) + 1
        if tag not in ("meta", "br", "use", "path", "rect", "circle", "line", "polygon", "polyline", "stop"):
            self.stack.append((tag, a))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, str]]:
    folder = tmp_path_factory.mktemp("reports")
    out: dict[str, tuple[Path, Path, str]] = {}
    for rid in sorted(registry.systems()):
        save = folder / f"{rid}.json"
        html = folder / f"{rid}.html"
        # scripted v random: a battle with losses in every system (the scripted mirror of a
        # system may end with none: Knight Hack's scripted bots make no even charge)
        argv = ["battle", _scenario(rid), "--seed", "3", "--blue", "random", "--save", str(save)]
        assert run(argv) == 0
        assert run(["report-battle", str(save), "-o", str(html)]) == 0
        out[rid] = (save, html, html.read_text(encoding="utf-8"))
    return out


def test_every_built_in_rule_system_is_reported(reports: dict[str, Any]) -> None:
    assert set(reports) >= BUILT_IN


@pytest.mark.parametrize("rid", sorted(BUILT_IN))
def test_the_report_has_a_map_narrative_and_dice_per_turn_and_the_losses(
    reports: dict[str, tuple[Path, Path, str]], rid: str
) -> None:
    save, _, html = reports[rid]
    data = json.loads(save.read_text(encoding="utf-8"))
    page = _Page()
    page.feed(html)
    turns = sorted({int(e["turn"]) for e in data["events"]})
    assert page.turns == [f"turn-{t}" for t in turns]
    for t in page.turns:
        assert page.maps.get(t) == 1, t  # the table at the end of the turn, drawn once
        assert page.marks.get(t) == 1, t  # with the report's arrows, losses and combats
    # every turn in which something happened is narrated
    assert sum(1 for t in page.turns if page.lines.get(t)) >= len(turns) - 1
    assert any(page.dice_rows.get(t, 0) > 1 for t in page.turns)  # header row + at least one roll
    assert {"report-losses", "bar"} <= page.classes  # the chart, with the losses the battle had
    text = " ".join(page.text)
    res = data["result"]
    assert res["reason"] in text and "Seed 3" in " ".join(text.split())
    assert registry.get(rid).title in text
    # standalone: no script, no stylesheet link, no image fetched, every reference inside the page
    assert not {"script", "link", "img", "iframe"} & page.tags
    outside = [u for u in page.urls if not re.fullmatch(r"#[\w-]+|url\(#[\w-]+\)", u)]
    assert page.urls and not outside, outside[:5]
    assert "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_losses_per_turn_add_up_to_the_units_lost(reports: dict[str, tuple[Path, Path, str]]) -> None:
    from shieldwall.io.saves import read_save, replay
    from shieldwall.io.scenarios import game_from_data

    def gone(u: dict[str, Any] | None) -> bool:
        return u is None or any(u.get(k) for k in ("removed", "gone", "destroyed"))

    for rid, (save, _, html) in reports.items():
        data = read_save(save)
        first = game_from_data(data["scenario"], str(save), data["overrides"]).new_state(3).view()
        last = {u["id"]: u for u in replay(data).view()["units"]}
        want = sum(1 for u in first["units"] if not gone(u) and gone(last.get(u["id"])))
        # units that joined during the battle (e.g. the mounts of a dismounted unit) and were lost
        start = {u["id"] for u in first["units"]}
        want += sum(1 for uid, u in last.items() if uid not in start and gone(u))
        bars = sum(int(n) for n in re.findall(r'class="bar"[^>]*data-lost="(\d+)"', html))
        assert bars == want > 0, rid


def test_moves_and_combats_are_drawn(reports: dict[str, tuple[Path, Path, str]]) -> None:
    _, _, html = reports["one-hour-dark-ages"]
    assert html.count('class="report-combat"') > 0
    assert html.count('class="report-lost"') > 0
    assert html.count("<polygon") > 0  # arrow heads (and the table's own shapes)


def _err_of(capsys: pytest.CaptureFixture[str], save: Path, out: Path) -> tuple[int, str]:
    capsys.readouterr()
    code = run(["report-battle", str(save), "-o", str(out)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("damage", ["truncated", "event", "order", "scenario", "format"])
def test_a_broken_or_tampered_save_is_a_one_line_error_naming_the_file(
    reports: dict[str, tuple[Path, Path, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    damage: str,
) -> None:
    good, _, _ = reports["one-hour-dark-ages"]
    text = good.read_text(encoding="utf-8")
    data = json.loads(text)
    bad = tmp_path / f"bad-{damage}.json"
    if damage == "truncated":
        bad.write_text(text[: len(text) // 2], encoding="utf-8")
    else:
        if damage == "event":  # a die face changed in the log
            ev = next(e for e in data["events"] if isinstance(e["data"].get("faces"), list))
            ev["data"]["faces"] = [f % 5 + 1 for f in ev["data"]["faces"]]
        elif damage == "order":
            data["orders"][3] = {"nonsense": True}
        elif damage == "scenario":
            data["scenario"]["units"] = "none"
        else:
            data["format"] = "something-else/9"
        bad.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "r.html"
    code, err = _err_of(capsys, bad, out)
    assert code == 2, err
    assert err.startswith("error: ") and str(bad) in err.replace("\n", ""), err
    assert len(err.strip().splitlines()) <= 2 and "Traceback" not in err, err  # one line (rich may wrap)
    assert not out.exists()


def test_a_missing_save_and_an_output_into_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reports: dict[str, tuple[Path, Path, str]]
) -> None:
    code, err = _err_of(capsys, tmp_path / "nope.json", tmp_path / "r.html")
    assert code == 2 and "nope.json" in err and "not found" in err
    good, _, _ = reports["knight-hack"]
    code, err = _err_of(capsys, good, tmp_path / "no" / "r.html")
    assert code == 2 and "--output" in err


def test_a_save_of_a_battle_not_over_is_reported_up_to_where_it_stops(
    reports: dict[str, tuple[Path, Path, str]], tmp_path: Path
) -> None:
    good, _, _ = reports["knight-hack"]
    data = json.loads(good.read_text(encoding="utf-8"))
    data["orders"] = data["orders"][: len(data["orders"]) // 2]
    del data["events"]  # a save without its log is replayed, not verified
    data["result"] = None
    half = tmp_path / "half.json"
    half.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "half.html"
    assert run(["report-battle", str(half), "-o", str(out)]) == 0
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    text = " ".join(" ".join(page.text).split())
    assert "Result not over" in text and "the save holds no events" in text
    assert page.turns and all(page.maps.get(t) == 1 for t in page.turns)
