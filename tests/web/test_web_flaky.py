"""Playing in the browser on a bad connection (a phone on weak Wi-Fi, a train): Chromium reaches
the real server through a line of the test's own that adds latency, stalls, drops connections
mid-frame and cuts them for a while."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flakynet import FlakyLine, flaky
from webclient import Server

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # .ci/run installs it; elsewhere: apt-get install chromium
    pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

from test_web_browser import ARGS, WATCH_SOCKETS, play_until, wait_until  # noqa: E402

LEGAL = ".hand.my-turn .card-btn.legal:not(.sent)"

# Every toast the page shows, in turn (a toast shows for a moment only).
WATCH_TOASTS = """window.toasts = [];
document.addEventListener("DOMContentLoaded", () => {
  const toast = document.getElementById("toast");
  new MutationObserver(() => {
    if (toast.classList.contains("shown") && window.toasts.at(-1) !== toast.textContent)
      window.toasts.push(toast.textContent);
  }).observe(toast, { childList: true, attributes: true, characterData: true, subtree: true });
});"""

# What each language says when the connection is lost, and when it is back.
LOST = {
    "en": "Connection lost: reconnecting…",
    "es": "Conexión perdida: reconectando…",
    "pt": "Conexão perdida: reconectando…",
}
BACK = {"en": "Connected again", "es": "Conectado de nuevo", "pt": "Conectado de novo"}
NOT_SENT = {
    "en": "You are offline: not sent",
    "es": "Sin conexión: no se envió",
    "pt": "Sem conexão: não foi enviado",
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def line(server: Server) -> Iterator[FlakyLine]:
    with flaky(server) as made:
        yield made


class Pages:
    """Browser contexts opened by a test, each checked for console errors at its end."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, locale: str = "en-US") -> Any:
        context = self.browser.new_context(viewport={"width": 1360, "height": 900}, locale=locale)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "console",
            lambda m: m.type == "error" and self.errors.append(m.text),
        )
        page.add_init_script(WATCH_SOCKETS + "\n" + WATCH_TOASTS)
        return page


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    made = Pages(browser)
    yield made
    for context in made.contexts:
        context.close()
    # A WebSocket cut by the network is the browser's own line on the console, not the page's.
    assert [e for e in made.errors if "WebSocket" not in e] == [], made.errors


def seated(page: Any, line: FlakyLine, code: str, token: str) -> None:
    page.goto(line.url + "/")
    page.evaluate(f"localStorage.setItem('tapete:token:{code}', '{token}')")
    page.goto(f"{line.url}/t/{code}")


def against_bots(server: Server, spec: str = "pocha", **options: Any) -> dict[str, Any]:
    options.setdefault("params", {"schedule": "[5]"})
    options.setdefault("bot_delay", 0.05)
    players = options.pop("players", 4)
    return server.create(
        spec,
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1),
        **options,
    )


def hand_of(page: Any) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in page.locator(".hand .card-btn").all()]


def server_view(server: Server, made: dict[str, Any]) -> dict[str, Any]:
    """The table as the server shows it now to the seat of ``made``'s token."""
    client = server.client()
    try:
        client.hello(made["code"], made["token"])
        view: dict[str, Any] = client.expect("view")
        return view
    finally:
        client.close()


def reconnected(page: Any, sockets: int) -> None:
    """Until a connection after the first ``sockets`` is open and was shown the table."""
    wait_until(
        page,
        f"window.sockets.length > {sockets} && window.sockets.at(-1).readyState === 1"
        " && window.sockets.at(-1).views > 0",
        timeout=25,
    )


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_a_card_clicked_while_the_line_is_cut_is_said_not_sent_and_is_played_once_after(
    pages: Pages, server: Server, line: FlakyLine, lang: str
) -> None:
    made = against_bots(server, grace=20)
    p = pages.open({"en": "en-US", "es": "es-ES", "pt": "pt-BR"}[lang])
    seated(p, line, made["code"], made["token"])
    p.click(".waiting .start")
    play_until(p, LEGAL, random.Random(3), limit=3)
    hand = hand_of(p)
    sockets = p.evaluate("window.sockets.length")

    line.cut()
    p.wait_for_selector(f".banner:has-text('{LOST[lang]}')")
    p.locator(LEGAL).first.click()
    # Said at once, and the hand stays to be played: nothing looks sent that was not.
    wait_until(p, f"window.toasts.includes({NOT_SENT[lang]!r})")
    assert p.locator(".hand .card-btn.sent").count() == 0

    line.back()
    reconnected(p, sockets)
    p.wait_for_selector(".banner", state="hidden")
    wait_until(p, f"window.toasts.includes({BACK[lang]!r})")
    assert hand_of(p) == hand  # the click made offline was not played meanwhile
    p.locator(LEGAL).first.click()
    wait_until(p, f"document.querySelectorAll('.hand .card-btn').length === {len(hand) - 1}")
    assert hand_of(p) == server_view(server, made)["table"]["hand"]


def test_a_card_sent_into_a_line_gone_silent_and_lost_is_asked_for_again_once_back(
    pages: Pages, server: Server, line: FlakyLine
) -> None:
    made = against_bots(server, grace=20)
    p = pages.open()
    seated(p, line, made["code"], made["token"])
    p.click(".waiting .start")
    play_until(p, LEGAL, random.Random(5), limit=3)
    hand = hand_of(p)
    sockets = p.evaluate("window.sockets.length")

    line.stall()  # the page cannot tell yet: its click goes into the line
    p.locator(LEGAL).first.click()
    p.wait_for_selector(f".banner:has-text('{LOST['en']}')", timeout=20_000)
    line.cut()  # what the line held is lost with it
    line.resume()
    line.back()
    reconnected(p, sockets)
    wait_until(p, "window.toasts.includes('Your move did not reach the table: play it again')")
    assert hand_of(p) == hand == server_view(server, made)["table"]["hand"]
    p.locator(LEGAL).first.click()
    wait_until(p, f"document.querySelectorAll('.hand .card-btn').length === {len(hand) - 1}")
    assert hand_of(p) == server_view(server, made)["table"]["hand"]


def test_a_second_press_on_a_slow_line_plays_nothing_more_and_is_not_refused(
    pages: Pages, server: Server, line: FlakyLine
) -> None:
    made = against_bots(server, grace=20)
    p = pages.open()
    seated(p, line, made["code"], made["token"])
    p.click(".waiting .start")
    play_until(p, LEGAL, random.Random(7), limit=3)
    hand = hand_of(p)
    line.latency = 0.7
    p.locator(LEGAL).first.focus()
    p.keyboard.press("Enter")
    p.keyboard.press("Enter")  # the table has not answered yet: the person presses again
    wait_until(p, f"document.querySelectorAll('.hand .card-btn').length === {len(hand) - 1}")
    line.latency = 0
    p.wait_for_timeout(2_000)  # the second tap's answer, if it had one, is back by now
    assert p.evaluate("window.toasts") == []
    assert p.locator(".hint-box").inner_text() == ""
    assert hand_of(p) == server_view(server, made)["table"]["hand"]
