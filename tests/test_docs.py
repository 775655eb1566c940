"""The user's documents stay complete: the players' rule book (docs/rules.md)
names every rule option with its default and choices, and the README's quick
start, its links and the Makefile agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from euchre.rules import OPTIONS, RuleOption

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
README = ROOT / "README.md"


def _option_rows() -> dict[str, str]:
    """The rows of docs/rules.md's options table, by the option they name first."""
    text = RULES_MD.read_text(encoding="utf-8")
    start = text.index("## Every rule option")
    table = text[start : text.index("\n## ", start + 1)]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        m = re.match(r"\| `([a-z_]+)` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


@pytest.mark.parametrize("opt", OPTIONS, ids=lambda o: o.name)
def test_rules_md_lists_every_option_with_its_default(opt: RuleOption) -> None:
    """Each option of ``rules.OPTIONS`` has a row in docs/rules.md's table
    whose default cell is the option's default (``on``/``off`` for a yes/no
    option) and which names every allowed value."""
    rows = _option_rows()
    assert opt.name in rows, f"docs/rules.md: no row for {opt.name}"
    cells = [c.strip() for c in rows[opt.name].strip().strip("|").split(" | ")]
    assert cells[1].strip("`") == opt.text(opt.default)
    values = ["on", "off"] if opt.kind == "bool" else [str(c) for c in opt.choices]
    for value in values:
        assert f"`{value}`" in cells[2], f"{opt.name}: {value} missing"
    if opt.kind == "count":
        assert "positive whole number" in cells[2]


def test_rules_md_has_no_unknown_option() -> None:
    assert sorted(_option_rows()) == sorted(o.name for o in OPTIONS)


def test_rules_md_shows_every_flag() -> None:
    """The section on setting the options gives each terminal flag."""
    text = RULES_MD.read_text(encoding="utf-8")
    setting = text[text.index("## Setting the options") :]
    for opt in OPTIONS:
        assert f"`{opt.flag} " in setting, opt.flag


def test_readme_quick_start_and_makefile() -> None:
    """The quick start gives the three make commands (the CI runs ``make
    test``), the time ``make test`` takes and what it installs; the Makefile's
    first line names the same three."""
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    quick = text[start : text.index("\n## ", start + 1)]
    block = quick[quick.index("```sh") : quick.index("```", quick.index("```sh") + 5)]
    for command in ("make play", "make run", "make test"):
        assert re.search(rf"^{command}\b", block, re.M), command
    assert "15–20 minutes" in quick
    for package in ("chromium", "postgresql"):
        assert package in quick
    first = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()[0]
    assert all(c in first for c in ("make play", "make run", "make test"))


def test_readme_links_every_document() -> None:
    """The README links each page of docs/, and every docs/ link it has exists."""
    text = README.read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", text))
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert {"docs/rules.md", "docs/strength.md"} <= pages
    assert pages <= linked
    assert all((ROOT / link).exists() for link in linked), linked - pages
