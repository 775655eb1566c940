"""The web server's resource limits, against a real `euchre serve` process.

- HTTP bodies: a chunked body over 16 KiB is ``413 too_large``; a body promised
  (``Content-Length``) but never sent is ``408 timeout`` after
  ``--request-timeout``.
- HTTP headers: a connection that sends nothing, or its headers only in part
  (or a byte at a time), is answered 408 and closed after ``--request-timeout``;
  keep-alive and WebSockets are not affected.
- WebSockets: a socket that says no (good) ``hello`` within ``--hello-timeout``
  gets an ``error`` ``timeout`` and is closed (code 4408).
- Table creation: per client address (``--create-rate``, ``--create-burst``,
  ``--max-waiting-per-address``: 429 ``rate_limited``) and overall
  (``--max-waiting``, ``--create-rate-total``: 503 ``busy``); the lobby lists
  tables with people first, so empty tables cannot push them out.
- Expiry: a table nobody started within ``--table-expiry`` leaves the lobby
  and refuses joins and starts (410 ``expired``), on SQLite and PostgreSQL.

Every server here uses limits of a second or so, so each test takes seconds.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from euchre.cli import main as cli_main
from pgserver import PgServer
from webserver import Api, ServerProcess, TableClient, start_server

pytestmark = pytest.mark.timeout(120)

#: The short ``--request-timeout`` and ``--hello-timeout`` of the timeout tests.
TIMEOUT = 1.0


def address(server: ServerProcess) -> tuple[str, int]:
    """The server's host and port."""
    host, port = server.url.split("//", 1)[1].rsplit(":", 1)
    return host, int(port)


def raw_exchange(
    server: ServerProcess, data: bytes, *, trickle: float = 0.0, wait: float = 8.0
) -> tuple[float, bytes, bool]:
    """Send ``data`` on a fresh TCP connection (``trickle``: one byte every so
    many seconds) and read until the server closes it or ``wait`` seconds pass:
    (seconds taken, bytes read, whether the server closed the connection)."""
    sock = socket.create_connection(address(server))
    start = time.monotonic()
    received = b""
    closed = False
    try:
        if trickle:
            sock.settimeout(trickle)
            for i in range(len(data)):
                try:
                    sock.sendall(data[i : i + 1])
                except OSError:
                    closed = True
                    break
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                except ConnectionResetError:  # a byte sent after the server closed
                    closed = True
                    break
                received += chunk
                if not chunk:
                    closed = True
                    break
        else:
            sock.sendall(data)
        sock.settimeout(max(0.1, wait - (time.monotonic() - start)))
        while not closed:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            except ConnectionResetError:
                closed = True
                break
            received += chunk
            closed = not chunk
    finally:
        sock.close()
    return time.monotonic() - start, received, closed


def status_and_body(answer: bytes) -> tuple[int, Any]:
    """The status code and the JSON body (or text) of a raw HTTP/1.1 answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode()


# -- HTTP: bodies and headers ------------------------------------------------------------------


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with 1-second request and hello timeouts (creation not limited)."""
    db = tmp_path_factory.mktemp("limits") / "euchre.db"
    extra = ["--request-timeout", str(TIMEOUT), "--hello-timeout", str(TIMEOUT)]
    with start_server(f"sqlite:///{db}", extra_args=extra) as srv:
        yield srv


def chunked(body: bytes, size: int = 4000) -> bytes:
    """``body`` in the chunked transfer coding."""
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


POST_CHUNKED = (
    b"POST /api/tables HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n"
)


def test_a_chunked_body_over_the_limit_is_too_large(quick: ServerProcess) -> None:
    """No Content-Length to check up front: the body is counted as it comes."""
    big = json.dumps({"rules": {}, "name": "x" * 20_000}).encode()
    taken, answer, closed = raw_exchange(quick, POST_CHUNKED + chunked(big))
    status, body = status_and_body(answer)
    assert status == 413, answer
    assert body["error"]["code"] == "too_large"
    assert closed and taken < TIMEOUT
    # a small chunked body is read whole and served as usual
    small = json.dumps({"rules": {}, "name": "chunked"}).encode()
    _, answer, _ = raw_exchange(quick, POST_CHUNKED + chunked(small, 5), wait=2)
    status, body = status_and_body(answer)
    assert status == 201, answer
    assert body["table"]["name"] == "chunked"
    # and through an HTTP client streaming its body (chunked too)
    with httpx.Client(base_url=quick.url, trust_env=False, timeout=10) as http:
        pieces = (big[i : i + 1000] for i in range(0, len(big), 1000))
        streamed = http.post(
            "/api/tables", content=pieces, headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413
        assert streamed.json()["error"]["code"] == "too_large"


def test_a_body_that_never_comes_times_out(quick: ServerProcess) -> None:
    """A client that promises 100 bytes and sends 9 gets 408 after the timeout."""
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    taken, answer, closed = raw_exchange(quick, head + b'{"rules":')
    status, body = status_and_body(answer)
    assert status == 408, answer
    assert body["error"]["code"] == "timeout"
    assert closed
    assert TIMEOUT * 0.9 <= taken < TIMEOUT + 3
    # half-sent chunked: the same
    taken, answer, closed = raw_exchange(quick, POST_CHUNKED + b'9\r\n{"rules":\r\n')
    assert status_and_body(answer)[0] == 408 and closed, answer


@pytest.mark.parametrize(
    ("data", "trickle"),
    [
        (b"", 0.0),  # connects and says nothing
        (b"GET /api/health HTTP/1.1\r\nHost: test\r\n", 0.0),  # headers never finished
        (b"GET /api/health HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"a" * 40, 0.1),  # slowloris
    ],
    ids=["silent", "half-sent", "trickled"],
)
def test_headers_that_never_finish_are_closed(
    quick: ServerProcess, data: bytes, trickle: float
) -> None:
    taken, answer, closed = raw_exchange(quick, data, trickle=trickle)
    assert closed, f"still open after {taken:.1f}s"
    assert TIMEOUT * 0.9 <= taken < TIMEOUT + 3, taken
    if answer or not trickle:  # (a byte trickled after the close may reset the answer away)
        assert answer.startswith(b"HTTP/1.1 408 "), answer


def test_keep_alive_and_websockets_outlive_the_request_timeout(quick: ServerProcess) -> None:
    """The header timer stops once a request's headers are in: a keep-alive
    connection serves one request after another, a WebSocket lives on."""
    two = b"GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n" * 2
    _, answer, _ = raw_exchange(quick, two, wait=1.5)
    assert answer.count(b"HTTP/1.1 200 OK") == 2, answer
    with httpx.Client(base_url=quick.url, trust_env=False, timeout=10) as http:
        for _ in range(3):  # one connection, requests apart but within keep-alive
            assert http.get("/api/health").json() == {"ok": True}
            time.sleep(TIMEOUT * 0.7)
    api = Api(quick.url)
    table_id = api.create()
    api.close()
    client = TableClient(quick.ws_url, table_id, None)
    try:
        assert client.state()["seat"] is None
        time.sleep(TIMEOUT * 2)
        client.send({"type": "ping"})
        assert client.wait_for(lambda m: m.get("type") == "pong", 5)
    finally:
        client.close()


# -- WebSocket: hello in time -------------------------------------------------------------------


def test_a_socket_that_never_says_hello_is_closed(quick: ServerProcess) -> None:
    api = Api(quick.url)
    table_id = api.create()
    api.close()
    for first in (None, {"type": "ping"}, {"type": "hello", "token": "forged"}):
        client = TableClient(quick.ws_url, table_id, None, hello=False)
        start = time.monotonic()
        try:
            if first is not None:  # a ping or a bad hello is not a hello
                client.send(first)
            message = client.wait_for(lambda m: m.get("code") == "timeout", TIMEOUT + 5)
            assert "hello" in message["message"]
            with pytest.raises(ConnectionClosed) as closed:
                client.ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
            assert TIMEOUT * 0.9 <= time.monotonic() - start < TIMEOUT + 4
        finally:
            client.close()


def test_a_socket_that_loses_its_seat_has_the_hello_time_again(quick: ServerProcess) -> None:
    """A bad hello after a good one, later than the hello timeout after connecting,
    leaves the socket without a seat, not closed at once: a good hello in time
    gives the seat back."""
    api = Api(quick.url)
    table_id = api.create()
    token = api.join(table_id, 0, "Ann")
    api.close()
    client = TableClient(quick.ws_url, table_id, token)
    try:
        assert client.state()["seat"] == 0
        time.sleep(TIMEOUT * 1.5)
        client.send({"type": "hello", "token": "forged"})
        assert client.error()["code"] == "bad_token"
        time.sleep(TIMEOUT * 0.3)
        client.send({"type": "hello", "token": token})
        assert client.state()["seat"] == 0
    finally:
        client.close()


# -- table creation -----------------------------------------------------------------------------


def client_from(server: ServerProcess, source: str) -> httpx.Client:
    """An HTTP client whose connections come from the loopback address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=server.url, transport=transport, trust_env=False, timeout=10)


def create(http: httpx.Client, name: str = "t") -> httpx.Response:
    return http.post("/api/tables", json={"rules": {}, "name": name})


def refused(answer: httpx.Response, status: int, code: str, needle: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and needle in error["message"], error


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Per address: 60 tables a minute (1 a second), 3 at once, 4 waiting; 6
    waiting in all; no overall rate."""
    db = tmp_path_factory.mktemp("limited") / "euchre.db"
    extra = [
        *("--create-rate", "60", "--create-burst", "3", "--max-waiting-per-address", "4"),
        *("--max-waiting", "6", "--create-rate-total", "0"),
    ]
    with start_server(f"sqlite:///{db}", extra_args=extra, loose_limits=False) as srv:
        yield srv


def test_table_creation_is_limited_per_address_and_overall(limited: ServerProcess) -> None:
    one, two = client_from(limited, "127.0.0.1"), client_from(limited, "127.0.0.2")
    try:
        # the burst, then the rate
        made = [create(one) for _ in range(3)]
        assert [a.status_code for a in made] == [201] * 3
        refused(create(one), 429, "rate_limited", "a minute")
        # another address is not held back by the first one's spending
        assert create(two).status_code == 201
        time.sleep(1.1)  # a token back
        assert create(one).status_code == 201
        time.sleep(1.1)
        # four waiting from this address: the most allowed, whatever the rate
        refused(create(one), 429, "rate_limited", "tables waiting")
        # a table started no longer waits: room for one more
        table_id = made[0].json()["table_id"]
        token = one.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "A"})
        started = one.post(f"/api/tables/{table_id}/start", json={"token": token.json()["token"]})
        assert started.json()["status"] == "playing"
        assert create(one).status_code == 201
        # six waiting in all (4 + 1 + ... ): the server is full for everyone
        assert create(two).status_code == 201
        refused(create(two), 503, "busy", "tables waiting")
        assert "Traceback" not in limited.log()
    finally:
        one.close()
        two.close()


@pytest.fixture(scope="module")
def expiring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Tables expire after 2 s; 12 new tables a minute in all (3 at once)."""
    db = tmp_path_factory.mktemp("expiring") / "euchre.db"
    extra = EXPIRING
    with start_server(f"sqlite:///{db}", extra_args=extra) as srv:
        yield srv


#: The options of the expiry tests.
EXPIRING = ["--table-expiry", "2", "--create-rate-total", "12"]


def check_expiry(server: ServerProcess) -> None:
    """A waiting table expires; a started one plays on; the overall rate holds."""
    with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
        first = create(http, "left waiting").json()["table_id"]
        other = create(http, "started").json()["table_id"]
        lone = create(http, "untouched").json()["table_id"]
        refused(create(http), 503, "busy", "a minute")  # the overall rate: 3 at once
        joined = http.post(f"/api/tables/{first}/join", json={"seat": 0, "name": "A"})
        token = joined.json()["token"]
        token2 = http.post(f"/api/tables/{other}/join", json={"seat": 0, "name": "B"})
        http.post(f"/api/tables/{other}/start", json={"token": token2.json()["token"]})
        listed = {t["table_id"] for t in http.get("/api/tables").json()["tables"]}
        assert {first, other} <= listed
        time.sleep(2.3)
        # past its expiry: out of the lobby at once, and no more joins or starts
        listed = {t["table_id"] for t in http.get("/api/tables").json()["tables"]}
        assert first not in listed and other in listed
        refused(
            http.post(f"/api/tables/{first}/join", json={"seat": 1, "name": "B"}),
            410,
            "expired",
            "expired",
        )
        refused(http.post(f"/api/tables/{first}/start", json={"token": token}), 410, "expired", "")
        summary = http.get(f"/api/tables/{first}").json()
        assert summary["status"] == "expired"
        assert http.get(f"/api/tables/{other}").json()["status"] == "playing"
        # a table nobody touches is expired by the sweep (every second here)
        deadline = time.monotonic() + 5
        while http.get(f"/api/tables/{lone}").json()["status"] != "expired":
            assert time.monotonic() < deadline, "the sweep did not expire the table"
            time.sleep(0.2)
    # a WebSocket on an expired table: its state says so, and no action is taken
    client = TableClient(server.ws_url, first, token)
    try:
        state = client.state()
        assert state["table"]["status"] == "expired" and state["view"] is None
        client.send({"type": "action", "token": token, "action": "pass", "seq": 0})
        assert client.error()["code"] == "expired"
    finally:
        client.close()
    assert "Traceback" not in server.log()


def test_waiting_tables_expire(expiring: ServerProcess) -> None:
    check_expiry(expiring)


def test_waiting_tables_expire_on_postgres(pg_server: PgServer) -> None:
    url = pg_server.new_database("expiry")
    with start_server(url, extra_args=EXPIRING) as server:
        check_expiry(server)


def test_empty_tables_cannot_push_people_out_of_the_lobby(quick: ServerProcess) -> None:
    """Before: the lobby listed the newest 200 tables, so 200 new empty ones hid
    every table people sat at. Now tables with a person come first."""
    api = Api(quick.url)
    try:
        real = api.create(name="real people")
        api.join(real, 0, "Ada")
        for i in range(201):
            api.create(name=f"spam {i}")
        tables = api.get("/api/tables").json()["tables"]
        assert len(tables) == 200
        assert tables[0]["table_id"] == real
    finally:
        api.close()


# -- the options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--create-rate", "-1"], "--create-rate must be from 0"),
        (["--create-rate-total", "nan"], "--create-rate-total must be from 0"),
        (["--create-burst", "0"], "--create-burst must be from 1"),
        (["--max-waiting", "-5"], "--max-waiting must be from 0"),
        (["--max-waiting-per-address", "-1"], "--max-waiting-per-address must be from 0"),
        (["--table-expiry", "0"], "--table-expiry must be over 0"),
        (["--hello-timeout", "inf"], "--hello-timeout must be over 0"),
        (["--request-timeout", "-1"], "--request-timeout must be over 0"),
        (["--max-waiting", "many"], "invalid int value"),
    ],
)
def test_bad_limit_options_are_usage_errors(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli_main(["serve", *args])
    assert exit_.value.code == 2
    assert needle in capsys.readouterr().err
