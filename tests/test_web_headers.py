"""The web table's security headers, its WebSocket Origin check and ``--no-docs``.

Every HTTP answer of a real ``euchre serve`` (pages, static files, the API,
errors, 404s) carries a Content-Security-Policy without inline script, and
``X-Content-Type-Options``, ``X-Frame-Options`` and ``Referrer-Policy``; the
pages hold nothing that policy would block. A WebSocket handshake from a page
of another site is refused with HTTP 403 before it is accepted; one without
``Origin`` (a program, such as these tests' clients) or from the served site
or an ``--allow-origin`` is not. See docs/security.md. The real browser runs
the pages under the policy in tests/test_web_browser.py.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from euchre.cli import main
from euchre.web.middleware import OriginCheck, page_policy, parse_origin
from webserver import Api, ServerProcess, start_server

STATIC = Path(__file__).resolve().parent.parent / "src" / "euchre" / "web" / "static"
ALLOWED = "https://cards.example.org"

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("web-headers") / "tables.db"
    with start_server(f"sqlite:///{db}", extra_args=["--allow-origin", ALLOWED]) as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server.url)
    yield client
    client.close()


def policy(headers: httpx.Headers | dict[str, str]) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive -> sources."""
    value = headers.get("content-security-policy")
    assert value, f"no Content-Security-Policy in {dict(headers)}"
    out: dict[str, list[str]] = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            assert words[0].lower() not in out, f"{words[0]} twice in {value}"
            out[words[0].lower()] = words[1:]
    return out


def check_headers(headers: httpx.Headers | dict[str, str]) -> None:
    """The security headers of every answer but the docs pages'."""
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("referrer-policy") == "same-origin"
    csp = policy(headers)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline', 'unsafe-eval', data:, hosts
    assert csp["style-src"] == ["'self'"]  # no inline style either
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    assert "'self'" in csp["connect-src"]
    for sources in csp.values():
        assert not {"*", "https:", "http:", "ws:", "wss:", "'unsafe-inline'"} & set(sources)


# -- the headers -----------------------------------------------------------------------------

ANSWERS = [
    ("GET", "/", None, 200),
    ("GET", "/t/x", None, 200),
    ("GET", "/static/table.js", None, 200),
    ("GET", "/static/style.css", None, 200),
    ("GET", "/static/i18n/en.json", None, 200),
    ("GET", "/api/health", None, 200),
    ("GET", "/api/options", None, 200),
    ("GET", "/no/such/page", None, 404),
    ("GET", "/static/no-such-file.js", None, 404),
    ("GET", "/api/tables/no-such-table", None, 404),
    ("POST", "/api/tables", b"{not json", 400),
    ("POST", "/api/tables", b'{"rules": {"target": "ten"}}', 400),
    ("DELETE", "/api/health", None, 405),
    ("POST", "/api/tables", b"x" * 20_000, 413),
]


@pytest.mark.parametrize(("method", "path", "body", "status"), ANSWERS)
def test_every_answer_has_the_security_headers(
    api: Api, method: str, path: str, body: bytes | None, status: int
) -> None:
    """Pages, static files, the API, its errors and 404s: all have the headers."""
    headers = {"content-type": "application/json"} if body is not None else {}
    answer = api.http.request(method, path, content=body, headers=headers)
    assert answer.status_code == status, answer.text
    check_headers(answer.headers)


def test_the_policy_names_the_pages_own_websocket(api: Api, server: ServerProcess) -> None:
    """``connect-src``: 'self' and the served host's ws:/wss: (for browsers that
    do not match ws: to 'self'); a Host that is not a host name adds nothing."""
    host = server.url.removeprefix("http://")
    csp = policy(api.get("/t/x").headers)
    assert csp["connect-src"] == ["'self'", f"ws://{host}", f"wss://{host}"]
    injected = policy({"content-security-policy": page_policy("a.b; script-src *")})
    assert injected["connect-src"] == ["'self'"]
    assert injected["script-src"] == ["'self'"]
    assert "ws://[::1]:8000" in page_policy("[::1]:8000")


def test_a_500_has_the_security_headers(tmp_path: Path) -> None:
    """An unhandled exception's 500, answered by Starlette's outermost error
    layer, has the headers too (the headers wrap even that layer)."""
    from euchre.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_workers=0)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("boom")

    async def get() -> httpx.Response:  # in process, without the lifespan: no bots needed
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/boom")

    answer = asyncio.run(get())
    assert answer.status_code == 500
    check_headers(answer.headers)


def test_the_docs_pages_have_their_own_policy(api: Api) -> None:
    """/docs and /redoc load FastAPI's scripts from a CDN and start with an
    inline script: their policy allows that, still forbids framing; on by default."""
    for path in ("/docs", "/redoc"):
        answer = api.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["x-frame-options"] == "DENY"
        csp = policy(answer.headers)
        assert "'unsafe-inline'" in csp["script-src"]
        assert csp["frame-ancestors"] == ["'none'"]
        assert csp["object-src"] == ["'none'"]
    answer = api.get("/openapi.json")
    assert answer.status_code == 200
    check_headers(answer.headers)


def test_no_docs_turns_off_docs_redoc_and_openapi(tmp_path: Path) -> None:
    """``euchre serve --no-docs``: /docs, /redoc and /openapi.json are 404 (with the headers)."""
    with start_server(f"sqlite:///{tmp_path / 'tables.db'}", extra_args=["--no-docs"]) as srv:
        api = Api(srv.url)
        try:
            for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
                answer = api.get(path)
                assert answer.status_code == 404, path
                assert answer.json()["error"]["code"] == "not_found"
                check_headers(answer.headers)
            assert api.get("/api/health").json() == {"ok": True}
        finally:
            api.close()


# -- the pages need no inline code -----------------------------------------------------------


class _PageScan(HTMLParser):
    """Collects what a strict policy would block in an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.in_script = False
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>: inline event handler")
            if name == "style":
                self.problems.append(f"<{tag} style=...>: inline style")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}={value!r}>: javascript: URL")
        if tag == "style":
            self.problems.append("<style>: inline style sheet")
        if tag == "script":
            self.scripts += 1
            self.in_script = True
            src = names.get("src") or ""
            if not src.startswith("/static/"):
                self.problems.append(f"<script src={src!r}>: not a script of this site")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.problems.append(f"inline script: {data.strip()[:60]!r}")


@pytest.mark.parametrize("name", ["index.html", "table.html", "review.html"])
def test_pages_have_no_inline_script_handler_or_style(name: str) -> None:
    """Each page loads its code from /static only: no inline <script>, no
    ``onclick=``-style handler, no ``style=`` attribute, no ``javascript:`` URL."""
    scan = _PageScan()
    scan.feed((STATIC / name).read_text(encoding="utf-8"))
    assert scan.scripts >= 1
    assert not scan.problems, scan.problems


#: What a script may not do under the policy (or could use to slip markup past it).
FORBIDDEN_JS = {
    r"\beval\s*\(": "eval",
    r"\bnew\s+Function\b": "new Function",
    r"\bset(?:Timeout|Interval)\s*\(\s*[\"'`]": "setTimeout/setInterval with code text",
    r"\.style\b": "element.style (an inline style)",
    r"setAttribute\(\s*[\"'`](?:style|on\w+)[\"'`]": "a style or on... attribute",
    r"\b(?:innerHTML|outerHTML|insertAdjacentHTML)\b|document\.write": "markup from text",
    r"javascript:": "a javascript: URL",
}


def test_scripts_set_no_inline_code_or_style() -> None:
    """The page's modules neither evaluate text as code nor set inline styles
    or handlers (they build the DOM node by node and style it with classes)."""
    found = []
    for path in sorted(STATIC.glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in FORBIDDEN_JS.items():
                if re.search(pattern, line):
                    found.append(f"{path.name}:{number}: {what}: {line.strip()}")
    assert not found, "\n".join(found)


# -- the WebSocket Origin check --------------------------------------------------------------


def hello(server: ServerProcess, table_id: str, origin: str | None) -> dict[str, Any]:
    """Open the table's WebSocket sending ``Origin: origin`` (None: no header),
    say hello as a spectator; the first answer."""
    kw: dict[str, Any] = {} if origin is None else {"origin": origin}
    with connect(f"{server.ws_url}/ws/{table_id}", proxy=None, open_timeout=10, **kw) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        answer: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return answer


def refused(server: ServerProcess, table_id: str, origin: str) -> InvalidStatus:
    """The refusal of a handshake with ``Origin: origin``."""
    with pytest.raises(InvalidStatus) as info:
        hello(server, table_id, origin)
    return info.value


@pytest.fixture(scope="module")
def table_id(api: Api) -> str:
    return api.create(bots=["rule", "rule", "rule"])


def test_websocket_without_origin_is_accepted(server: ServerProcess, table_id: str) -> None:
    """Programs (these tests' clients, bench/load.py) send no Origin: let through."""
    assert hello(server, table_id, None)["type"] == "state"


def test_websocket_from_the_served_site_is_accepted(server: ServerProcess, table_id: str) -> None:
    """The page's own origin (http, or https behind a TLS proxy) with the same host and port."""
    port = server.url.rsplit(":", 1)[1]
    for origin in (server.url, f"https://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}/"):
        assert hello(server, table_id, origin)["type"] == "state", origin


def test_websocket_from_an_allowed_origin_is_accepted(server: ServerProcess, table_id: str) -> None:
    """``--allow-origin https://cards.example.org`` (its default port is implied)."""
    for origin in (ALLOWED, ALLOWED + ":443"):
        assert hello(server, table_id, origin)["type"] == "state", origin


def test_websocket_from_a_foreign_origin_is_refused(server: ServerProcess, table_id: str) -> None:
    """Another site's page — or the same host on another port or under another
    name, an allowed site on another port or scheme, an opaque ``null`` origin —
    gets HTTP 403 ``bad_origin`` before the socket is accepted."""
    port = int(server.url.rsplit(":", 1)[1])
    for origin in (
        "https://evil.example",
        f"http://evil.example:{port}",
        f"http://localhost:{port}",
        f"http://127.0.0.1:{port + 1}",
        f"http://127.0.0.1.evil.example:{port}",
        "https://cards.example.org:8443",
        "http://cards.example.org",
        "null",
        "file://",
    ):
        refusal = refused(server, table_id, origin)
        assert refusal.response.status_code == 403, origin
        body = json.loads(refusal.response.body or b"{}")
        assert body["error"]["code"] == "bad_origin", origin
        check_headers(dict(refusal.response.headers.raw_items()))
    assert "refused a WebSocket from origin 'https://evil.example'" in server.log()
    # the table is still there for everyone else
    assert hello(server, table_id, server.url)["type"] == "state"


def test_origin_rule() -> None:
    """``OriginCheck.permits``: host and port from the Host header, the scheme's
    default port when one is left out; the allow-list in canonical form."""
    check = OriginCheck(app=None, allowed=["https://Cards.Example.org/"])  # type: ignore[arg-type]
    assert check.permits("https://cards.example.org", None)
    assert check.permits("https://cards.example.org:443", "other:1")
    assert not check.permits("http://cards.example.org", None)
    assert check.permits("https://play.example", "play.example")
    assert check.permits("http://play.example", "PLAY.example:80")
    assert not check.permits("https://play.example", "play.example:80")
    assert check.permits("http://[::1]:8000", "[::1]:8000")
    assert not check.permits("http://play.example:99999", "play.example")
    assert not check.permits("chrome-extension://abc", "abc")
    assert not check.permits("http://play.example", None)


def test_parse_origin() -> None:
    """``--allow-origin`` takes an http(s) origin: scheme, host, optional port."""
    assert parse_origin("https://Cards.example.org") == "https://cards.example.org:443"
    assert parse_origin("http://10.0.0.5:8080/") == "http://10.0.0.5:8080"
    assert parse_origin("http://[::1]") == "http://[::1]:80"
    for bad in (
        "cards.example.org",
        "ftp://cards.example.org",
        "https://cards.example.org/play",
        "https://cards.example.org?x=1",
        "https://user@cards.example.org",
        "https://cards.example.org:99999",
        "null",
        "*",
    ):
        with pytest.raises(ValueError):
            parse_origin(bad)


def test_cli_refuses_a_bad_allow_origin(capsys: pytest.CaptureFixture[str]) -> None:
    """``euchre serve --allow-origin`` with something not an origin: usage error, exit 2."""
    with pytest.raises(SystemExit) as info:
        main(["serve", "--allow-origin", "cards.example.org"])
    assert info.value.code == 2
    assert "--allow-origin: want an origin" in capsys.readouterr().err
