"""The web page's translations: five complete catalogs, every key the page uses.

The page (src/euchre/web/static/) takes every user-visible word from
``i18n/{lang}.json``: HTML elements name their key in ``data-i18n`` (text) or
``data-i18n-attr`` (attributes), scripts call ``t("key")`` / ``fmt("key")``,
and a few keys are built from data (``opt.<option>``, ``suit.<letter>``...).
These tests need no browser and no server.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest

from euchre.rules import VARIANTS, Rules

STATIC = Path(__file__).resolve().parent.parent / "src" / "euchre" / "web" / "static"
LANGS = ("en", "es", "de", "it", "sl")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: attributes a person sees or hears (screen readers) — they need data-i18n-attr
VISIBLE_ATTRS = ("placeholder", "title", "alt", "aria-label", "aria-description")


def catalog(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{lang}.json must be a JSON object"
    return data


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, str]]:
    return {lang: catalog(lang) for lang in LANGS}


def html_files() -> list[Path]:
    return sorted(STATIC.glob("*.html"))


def js_files() -> list[Path]:
    return sorted(STATIC.glob("*.js"))


# -- what the HTML uses, and what it leaves untranslated ------------------------------


class _Scan(HTMLParser):
    """Collects data-i18n keys and the user-visible text outside them."""

    VOID: ClassVar[set[str]] = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.keys: set[str] = set()
        self.stack: list[tuple[str, bool]] = []  # (tag, translated or not shown)
        self.untranslated: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        covered = set()
        if a.get("data-i18n"):
            self.keys.add(a["data-i18n"] or "")
        for pair in (a.get("data-i18n-attr") or "").split(";"):
            if ":" in pair:
                attr, key = (s.strip() for s in pair.split(":", 1))
                covered.add(attr)
                self.keys.add(key)
        for attr in VISIBLE_ATTRS:
            if a.get(attr) and attr not in covered:
                self.untranslated.append(f"<{tag} {attr}={a[attr]!r}>")
        if tag == "input" and a.get("type") in ("button", "submit") and a.get("value"):
            self.untranslated.append(f"<input value={a['value']!r}>")
        quiet = bool(a.get("data-i18n")) or tag in ("script", "style")
        inherited = any(q for _, q in self.stack)
        if tag not in self.VOID:
            self.stack.append((tag, quiet or inherited))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if data.strip() and not any(q for _, q in self.stack):
            self.untranslated.append(data.strip())


def scan_html(text: str) -> _Scan:
    scan = _Scan()
    scan.feed(text)
    scan.close()
    return scan


T_CALL = re.compile(r"""\b(?:t|fmt)\(\s*["']([^"'`]+)["']""")
ATTR_IN_JS = re.compile(r"""data-i18n(?:-attr)?["']?\s*[:=]\s*["']([^"'`$]+)["']""")
DATASET_IN_JS = re.compile(r"""\.dataset\.i18n\s*=\s*["']([^"'`$]+)["']""")


def strip_comments(text: str) -> str:
    """A script without its comment lines and blocks."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", "", text)


def js_keys(text: str) -> set[str]:
    text = strip_comments(text)
    keys = set(T_CALL.findall(text)) | set(DATASET_IN_JS.findall(text))
    for value in ATTR_IN_JS.findall(text):
        for pair in value.split(";"):
            keys.add(pair.split(":", 1)[1].strip() if ":" in pair else pair.strip())
    return keys


def used_keys() -> dict[str, set[str]]:
    """Key -> the files using it, from the HTML and the scripts."""
    out: dict[str, set[str]] = {}
    for path in html_files():
        for key in scan_html(path.read_text(encoding="utf-8")).keys:
            out.setdefault(key, set()).add(path.name)
    for path in js_files():
        for key in js_keys(path.read_text(encoding="utf-8")):
            out.setdefault(key, set()).add(path.name)
    return out


def data_keys() -> set[str]:
    """Keys the scripts build from data: options, choices, levels, cards, rules..."""
    from euchre.web.app import options_description

    keys: set[str] = set()
    for opt in options_description():
        keys.add(f"opt.{opt['name']}")
        for value in opt.get("choices", []):
            keys.add(f"choice.{opt['name']}.{value}")
    keys |= {f"opt.{f.name}" for f in fields(Rules)}
    for level in ("easy", "medium", "hard", "expert"):
        keys |= {f"level.{level}", f"level.bot.{level}"}
    keys |= {f"variant.{v}" for v in VARIANTS}
    keys |= {f"status.{s}" for s in ("waiting", "playing", "over", "expired")}
    keys |= {f"conn.{s}" for s in ("connecting", "open", "closed")}
    keys |= {f"lang.{lang}" for lang in LANGS}
    for rank in "789TJQKA":
        keys |= {f"rank.{rank}", f"rank.short.{rank}"}
    for suit in "CDHS":
        keys |= {f"suit.{suit}", f"suit.{suit}.one"}
    for word in ("order", "assist", "accept"):
        keys |= {f"act.{word}", f"log.{word}", f"prompt.bid1.{word}"}
    rules_js = (STATIC / "rules.js").read_text(encoding="utf-8")
    for variant, prefix in (("cutthroat", "rules.ct"), ("partnership", "rules.pt")):
        m = re.search(variant + r""":\s*\[([^\]]*)\]""", rules_js)
        assert m, f"rules.js must list the sections of {variant}"
        sections = re.findall(r'"(\w+)"', m.group(1))
        keys.add(f"{prefix}.intro")
        keys |= {f"{prefix}.{s}.{part}" for s in sections for part in ("h", "p")}
    keys |= {"rules.cards.h", "rules.cards.p"}
    keys |= {f"error.{code}" for code in protocol_error_codes()}
    return keys


def protocol_error_codes() -> set[str]:
    """The error codes docs/protocol.md names (HTTP and WebSocket)."""
    text = (STATIC.parents[3] / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes: set[str] = set()
    for m in re.finditer(r"(Errors:|Codes:)(.*?)(?:\n\n|\n- |\Z)", text, re.S):
        codes |= set(re.findall(r"`([a-z_]+)`", m.group(2)))
    return codes


# -- the catalogs ---------------------------------------------------------------------


def test_every_language_has_every_key(catalogs: dict[str, dict[str, str]]) -> None:
    english = set(catalogs["en"])
    assert len(english) > 100
    for lang, cat in catalogs.items():
        assert set(cat) == english, (
            f"{lang}: missing {sorted(english - set(cat))}, extra {sorted(set(cat) - english)}"
        )


def test_no_empty_or_non_text_values(catalogs: dict[str, dict[str, str]]) -> None:
    for lang, cat in catalogs.items():
        bad = [k for k, v in cat.items() if not isinstance(v, str) or not v.strip()]
        assert not bad, f"{lang}: empty values for {bad}"


def test_placeholders_match_english(catalogs: dict[str, dict[str, str]]) -> None:
    for lang, cat in catalogs.items():
        for key, text in cat.items():
            want = set(PLACEHOLDER.findall(catalogs["en"][key]))
            got = set(PLACEHOLDER.findall(text))
            assert got == want, f"{lang} {key}: placeholders {sorted(got)}, English {sorted(want)}"


def test_translations_are_translated(catalogs: dict[str, dict[str, str]]) -> None:
    """Most long texts differ from English (a copied catalog would not)."""
    english = catalogs["en"]
    long_keys = [k for k, v in english.items() if len(v) > 25]
    for lang in LANGS[1:]:
        same = [k for k in long_keys if catalogs[lang][k] == english[k]]
        assert len(same) < len(long_keys) * 0.05, f"{lang} copies English for {same}"


def test_rules_summary_in_every_language(catalogs: dict[str, dict[str, str]]) -> None:
    """Cutthroat and partnership: dealing, bidding, dummy, alone, play, scoring."""
    needed = ["rules.ct.intro", "rules.pt.intro", "rules.cards.p"]
    needed += [f"rules.ct.{s}.p" for s in ("deal", "bid", "dummy", "alone", "play", "score")]
    needed += [f"rules.pt.{s}.p" for s in ("deal", "bid", "alone", "play", "score")]
    for lang, cat in catalogs.items():
        for key in needed:
            assert len(cat[key]) > 60, f"{lang} {key} is too short to explain anything"
        # the scoring table's numbers are the rule book's in every language
        assert all(n in cat["rules.ct.score.p"] for n in ("3", "4", "1", "2", "10")), lang


# -- the page uses only keys that exist -------------------------------------------------


def test_every_key_used_by_the_page_exists(catalogs: dict[str, dict[str, str]]) -> None:
    used = used_keys()
    assert "rules.button" in used and "app.name" in used  # the scan finds keys at all
    missing = {k: sorted(files) for k, files in used.items() if k not in catalogs["en"]}
    assert not missing, f"keys used but not in the catalogs: {missing}"


def test_keys_built_from_data_exist(catalogs: dict[str, dict[str, str]]) -> None:
    missing = sorted(data_keys() - set(catalogs["en"]))
    assert not missing, f"keys the page builds from data are missing: {missing}"


def test_html_has_no_untranslated_text() -> None:
    pages = html_files()
    assert {p.name for p in pages} >= {"index.html", "table.html"}
    for path in pages:
        scan = scan_html(path.read_text(encoding="utf-8"))
        assert not scan.untranslated, f"{path.name}: untranslated text {scan.untranslated}"


def test_the_text_scan_finds_untranslated_text() -> None:
    scan = scan_html(
        '<main><p data-i18n="a.b">Fine</p><p>Stray <b>words</b></p>'
        '<input placeholder="Name"><button data-i18n-attr="title:x.y" title="t">'
        "</button><script>let s = 'code';</script></main>"
    )
    assert scan.untranslated == ["Stray", "words", "<input placeholder='Name'>"]
    assert scan.keys == {"a.b", "x.y"}


def test_scripts_set_no_literal_words() -> None:
    """No script assigns a literal word to what the page shows."""
    for path in js_files():
        hits = literal_words(strip_comments(path.read_text(encoding="utf-8")))
        assert not hits, f"{path.name}: {hits}"


def literal_words(text: str) -> list[str]:
    """Literal strings with letters assigned to textContent, innerText, innerHTML, title
    (the ``${...}`` parts of template strings do not count)."""
    assign = re.compile(r"""(?:textContent|innerText|innerHTML|title)\s*=\s*(["'`])(.*?)\1""")
    out = []
    for m in assign.finditer(text):
        if re.search(r"[A-Za-z]", re.sub(r"\$\{[^}]*\}", "", m.group(2))):
            out.append(m.group(0))
    return out


def test_literal_word_scan() -> None:
    text = 'a.textContent = `${t("x")} — ${y}`; b.title = "Hello";'
    assert literal_words(text) == ['title = "Hello"']


def test_js_key_scan_finds_calls() -> None:
    keys = js_keys(
        '// t("no.comment")\nt("a.b"); fmt("c.d", {x}); el.dataset.i18n = "e.f"; t(`g.${x}`)'
    )
    assert keys == {"a.b", "c.d", "e.f"}


def _catalog_shapes() -> list[Any]:
    return [pytest.param(lang, id=lang) for lang in LANGS]


@pytest.mark.parametrize("lang", _catalog_shapes())
def test_catalog_is_valid_utf8_json_object(lang: str) -> None:
    raw = (STATIC / "i18n" / f"{lang}.json").read_bytes()
    data = json.loads(raw.decode("utf-8"))
    assert all(isinstance(k, str) and re.fullmatch(r"[a-z0-9_.]+", k, re.I) for k in data)
