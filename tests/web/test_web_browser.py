"""The browser side, for real: Playwright for Python driving Debian's Chromium at the real server.

Screenshots of each game's table are saved under ``test-artifacts/screenshots`` (or
``$TAPETE_ARTIFACTS/screenshots``); the folder is printed at the end of the run.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import threading
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_host import hosting
from test_web_join import play_at_prompt

import tapete
from tapete import howto
from tapete.client import make_table
from tapete.games import ENTRIES
from tapete.i18n import tr
from tapete.narrate import who_won
from webclient import Network, Server, play_to_the_end, running, stand_in_note, zoe_seats

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(os.environ.get("TAPETE_ARTIFACTS", "test-artifacts")).resolve() / "screenshots"
ACTIONABLE = ".buttons .act:not(.sent), .hand.my-turn .card-btn.legal:not(.sent)"

if not CHROMIUM.exists():  # .ci/run installs it; elsewhere: apt-get install chromium
    pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()
    print(f"\nscreenshots of the tables: {SHOTS}")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == [], errors


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def create_in_lobby(
    page: Any,
    server: Server,
    game: str,
    *,
    schedule: str | None = None,
    friends: int = 0,
    players: int | None = None,
) -> str:
    """Fill the lobby form as a person would; returns the table code."""
    p = page
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "Ana")
    p.select_option('select[name="game"]', game)
    p.click("#params summary")
    if schedule is not None:
        p.fill('input[name="p:schedule"]', schedule)
    if players is not None:
        p.fill('input[name="p:players"]', str(players))
    for i in range(1, friends + 1):
        p.select_option(f'select[name="seat{i}"]', "human")
    for i in range(friends + 1, (players or 4)):
        if p.locator(f'select[name="seat{i}"]').count():
            p.select_option(f'select[name="seat{i}"]', "bot:random")
    p.click("#table-options summary")
    p.fill('input[name="bot_delay"]', "0.1")
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    return str(p.url.rsplit("/", 1)[-1])


def click_one(page: Any, rng: random.Random, prefer_cards: bool = False) -> bool:
    """Click one legal card or button, if the page offers any; whether it did."""
    cards = page.locator(".hand.my-turn .card-btn.legal:not(.sent)")
    buttons = page.locator(".buttons .act:not(.sent)")
    choices = cards if cards.count() and (prefer_cards or not buttons.count()) else buttons
    count = choices.count()
    if not count:
        return False
    try:
        choices.nth(rng.randrange(count)).click(timeout=2_000)
    except Exception:  # the view changed under the pointer: look again
        return False
    return True


def play_until(
    page: Any, done: str, rng: random.Random, limit: int = 400, prefer_cards: bool = False
) -> int:
    """Click legal cards and buttons until ``done`` shows; returns the number of clicks."""
    clicks = 0
    while clicks < limit:
        page.wait_for_selector(f"{ACTIONABLE}, {done}", timeout=20_000)
        if page.locator(done).count() and page.locator(done).first.is_visible():
            return clicks
        clicks += click_one(page, rng, prefer_cards)
    raise AssertionError(f"{done} did not show after {limit} clicks")


def wait_until(page: Any, expression: str, timeout: float = 20) -> None:
    """Until ``expression`` is true in the page. Playwright's wait_for_function evaluates it
    with eval, which the page's Content-Security-Policy forbids, as it forbids any script."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def start_with_bots(
    page: Any,
    server: Server,
    spec: str,
    seed: int,
    bot_delay: float = 0.05,
    player: str | None = None,
    host: str = "Ana",
) -> str:
    """A table of ``spec`` with you in seat 0 and random bots, opened in ``page`` as its host
    and started; returns its code."""
    code = open_with_bots(page, server, spec, seed, bot_delay, player, host)
    page.click(".waiting .start")
    return code


def open_with_bots(
    page: Any,
    server: Server,
    spec: str,
    seed: int,
    bot_delay: float = 0.05,
    player: str | None = None,
    host: str = "Ana",
) -> str:
    """A table of ``spec`` with you in seat 0 and random bots, opened in ``page`` as its host
    (named ``host``), still waiting for its start (``player``: your player token, for results
    and ratings); returns its code."""
    game = tapete.load(spec)
    name, params = tapete.game.parse_spec(spec)
    made = server.create(
        name,
        params={k: str(v) for k, v in params.items()},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (game.players - 1),
        seed=seed,
        bot_delay=bot_delay,
        name=host,
        **({} if player is None else {"player": player}),
    )
    code = str(made["code"])
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector(".waiting .start")
    return code


def test_a_whole_pocha_hand_against_three_bots_by_clicking(page: Any, server: Server) -> None:
    p = page
    create_in_lobby(p, server, "pocha", schedule="[3]")
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)
    assert p.locator(".hand .card-btn").count() == 3
    assert p.locator(".hand svg").first.get_attribute("aria-hidden") == "true"
    clicks = play_until(p, ".summary:not([hidden])", random.Random(1))
    assert clicks >= 4  # a bid and three cards
    summary = p.locator(".summary")
    assert "won" in summary.inner_text()
    assert p.locator(".log li").count() >= 16
    assert p.locator(".scores tbody tr").count() >= 2  # the hand (and any tie-break), the total
    shot(p, "pocha-summary")


def test_two_browsers_play_truco_1v1(browser: Any, server: Server) -> None:
    one = browser.new_context(viewport={"width": 1280, "height": 860})
    two = browser.new_context(viewport={"width": 1280, "height": 860})
    ana, bea = one.new_page(), two.new_page()
    code = create_in_lobby(ana, server, "truco", players=2, friends=1)
    ana.wait_for_selector(".waiting .fill:not([disabled])")  # Bea's seat is open yet
    bea.goto(f"{server.url}/t/{code}")
    bea.fill(".join-name", "Bea")
    bea.click("[data-sit='1']")
    ana.wait_for_selector(".waiting li:has-text('Bea')")
    assert ana.locator(".waiting .fill").is_disabled()  # no seat is left for a bot
    ana.click(".waiting .start")
    rng = random.Random(2)
    # Both play by clicking until the first hand is scored.
    done = ".scores tbody tr:nth-child(2)"
    ana.wait_for_selector(".bar .title:has-text('Truco')")
    for _ in range(300):
        if ana.locator(done).count():
            break
        for page in (ana, bea):
            click_one(page, rng, prefer_cards=True)
        ana.wait_for_timeout(100)
    bea.wait_for_selector(done)
    assert ana.locator(done).count() and bea.locator(done).count()
    assert "Bea" in ana.locator(".seats").inner_text()
    shot(ana, "truco-1v1")
    one.close()
    two.close()


def test_a_friend_joins_by_keyboard_and_keeps_the_focus_in_the_waiting_room(
    browser: Any, server: Server
) -> None:
    """The name field once came after the seats: typed in, Tab left the page. And the "sit
    here" just pressed went with the redraw, the focus lost to the page's body."""
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    bea = context.new_page()
    bea.goto(f"{server.url}/t/{made['code']}")
    bea.wait_for_selector("[data-sit]")
    bea.focus(".join-name")
    bea.keyboard.type("Bea")
    bea.keyboard.press("Tab")
    assert bea.evaluate("document.activeElement.matches('[data-sit]')"), bea.evaluate(FOCUSED)
    bea.keyboard.press("Enter")
    bea.wait_for_selector(".seat-list li:has-text('Bea (you)')")
    bea.wait_for_timeout(300)  # every redraw the sitting down brings
    assert bea.evaluate("document.querySelector('.waiting').contains(document.activeElement)"), (
        bea.evaluate(FOCUSED)
    )
    context.close()


def test_a_tab_closed_mid_match_of_an_unlisted_table_is_found_again_from_the_lobby(
    browser: Any, server: Server
) -> None:
    """A table not listed in the lobby is reached by its link alone: whoever closed its tab
    mid-match (the host, who had nobody to ask for the link) could not find the way back."""
    made = server.create(
        "pocha",
        params={"schedule": "[5]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        public=False,
    )
    waiting = server.create("pocha", public=False)
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="pt-BR")
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.evaluate("localStorage.setItem('tapete:token:ZZZZZ', 'a table long gone')")
    p.evaluate(f"localStorage.setItem('tapete:token:{waiting['code']}', '{waiting['token']}')")
    p.goto(f"{server.url}/t/{made['code']}")
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)
    hand = [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()]
    p.close()  # the tab closed: the link with it
    p = context.new_page()
    p.goto(server.url + "/")
    p.wait_for_selector(".mine:not([hidden]) h2:has-text('Suas mesas')")
    assert p.locator("#tables").inner_text().count(made["code"]) == 0  # not listed
    mine = p.locator(".my-tables li")
    assert mine.count() == 2  # this one and the table still waiting, not the one gone
    assert p.evaluate("localStorage.getItem('tapete:token:ZZZZZ')") is None
    p.click(f".my-tables a[href='/t/{made['code']}']")
    p.wait_for_selector(".hand .card-btn")
    assert [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()] == hand
    context.close()


def test_a_reload_mid_hand_returns_to_the_same_seat(page: Any, server: Server) -> None:
    p = page
    create_in_lobby(p, server, "pocha", schedule="[5]")
    p.click(".waiting .start")
    play_until(p, ".hand.my-turn .card-btn.legal", random.Random(3), limit=3)
    p.wait_for_selector(".hand.my-turn")
    hand = [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()]
    title = p.locator(".bar .title").inner_text()
    p.reload()
    p.wait_for_selector(".hand.my-turn .card-btn")
    assert [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()] == hand
    assert p.locator(".bar .title").inner_text() == title
    assert p.locator(".seat.me .name").inner_text().startswith("Ana")
    assert p.locator(".log li").count() > 0


def test_the_language_switch(page: Any, server: Server) -> None:
    p = page
    p.goto(server.url + "/")
    assert p.locator(".lobby h1").inner_text() == "New table"
    p.select_option("#lang", "es")
    p.wait_for_selector(".lobby h1:has-text('Nueva mesa')")
    create_in_lobby(p, server, "pocha", schedule="[2]")
    p.click(".waiting .start")
    p.wait_for_selector(".bar .title:has-text('mano 1 de 1')")
    p.select_option("#lang", "pt")
    p.wait_for_selector(".bar .title:has-text('mão 1 de 1')")
    assert p.locator("label:has-text('cartas grandes')").count() == 1
    p.reload()
    p.wait_for_selector(".bar .title:has-text('mão 1 de 1')")  # the choice is remembered


def test_the_page_opens_in_the_language_chosen_before_its_script_runs(
    browser: Any, server: Server
) -> None:
    """The page came as lang="en", in English, until its script ran: a screen reader or a
    translator reading the first paint had English for a Spanish or Portuguese player."""
    context = browser.new_context(locale="es-ES")
    p = context.new_page()
    first = p.goto(server.url + "/")
    assert '<html lang="es">' in first.text()  # the browser's language, from the start
    p.wait_for_selector(".lobby h1:has-text('Nueva mesa')")
    p.select_option("#lang", "pt")
    p.wait_for_selector(".lobby h1:has-text('Nova mesa')")
    again = p.goto(server.url + "/rules/truco")
    assert '<html lang="pt-BR">' in again.text()  # the choice, over the browser's language
    assert '<span data-t="large cards">cartas grandes</span>' in again.text()
    context.close()


# Pocha and Oh Hell start with one-card hands: a later hand size shows more of the table.
SHOWN = {"pocha": "pocha(schedule=[5])", "oh_hell": "oh_hell(schedule=[6])"}


@pytest.mark.parametrize(
    "spec", [*(SHOWN.get(g, g) for g in tapete.game_names()), "truco(players=4)"]
)
def test_screenshot_of_each_games_table(browser: Any, server: Server, spec: str) -> None:
    game = tapete.load(spec)
    name = game.name
    context = browser.new_context(viewport={"width": 1360, "height": 860})
    p = context.new_page()
    start_with_bots(p, server, spec, seed=4)
    p.wait_for_selector(ACTIONABLE)
    # A few moves in, so there is something on the table.
    rng = random.Random(5)
    for _ in range(0 if name == "poch" else 4):
        p.wait_for_selector(f"{ACTIONABLE}, .summary:not([hidden])", timeout=20_000)
        if p.locator(".trick .played").count() or p.locator(".summary:not([hidden])").count():
            break
        click_one(p, rng, prefer_cards=True)
    p.wait_for_timeout(400)
    path = shot(p, f"table-{name}{'-2v2' if spec == 'truco(players=4)' else ''}")
    assert path.stat().st_size > 10_000
    assert p.locator(".felt .seat").count() == game.players
    context.close()


PHONE = {"width": 360, "height": 740}  # a small phone held upright


def measuring(body: str) -> str:
    """A page function of ``body``, with ``box(e)``: an element's box in the viewport, as a
    plain object (x, y, width, height) that comes back from the page."""
    return (
        "() => {\n  const box = (e) => {\n    const r = e.getBoundingClientRect();\n"
        "    return {x: r.x, y: r.y, width: r.width, height: r.height};\n  };\n" + body + "\n}"
    )


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > width + 1)) out.push(`${e.tagName}.${e.className}`);
  }
  return [document.documentElement.scrollWidth, width, out.slice(0, 5)];
}"""


def fits(page: Any) -> None:
    """Nothing on the page is wider than the phone's screen or hangs off its edges."""
    scroll, width, off = page.evaluate(OVERFLOW)
    assert scroll <= width and off == [], (scroll, width, off)


@pytest.mark.parametrize("spec", ["pocha(players=8, schedule=[3])", "poch", "truco(players=4)"])
def test_a_phone_shows_the_lobby_and_a_full_table_within_its_screen(
    browser: Any, server: Server, spec: str
) -> None:
    game = tapete.load(spec)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    p = context.new_page()
    p.goto(server.url + "/")
    fits(p)  # the game list's long descriptions once widened the page to 1,000 px
    p.click("#params summary")
    p.click("#table-options summary")  # reachable: nothing lies over it
    fits(p)
    start_with_bots(p, server, spec, seed=6)
    p.wait_for_selector(ACTIONABLE)
    p.wait_for_timeout(300)
    fits(p)  # every seat's box on the screen, and the bowls of Poch's board too
    assert p.locator(".felt .seat").count() == game.players
    shot(p, f"phone-{game.name}")
    play_until(p, ".summary:not([hidden])", random.Random(7), limit=600)
    fits(p)
    context.close()


INSIDE = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const box = e.closest(".seat, li").getBoundingClientRect(), r = e.getBoundingClientRect();
  return r.left >= box.left - 1 && r.right <= box.right + 1 && e.scrollWidth <= e.clientWidth + 1;
})"""


def test_a_long_name_of_one_word_stays_in_its_seat_and_the_phone_s_screen(
    browser: Any, server: Server
) -> None:
    """24 W's once ran out of their seat's box over the next seats, out of the waiting room's
    list and off a phone's screen; now they break inside, two lines at most on the felt."""
    long = "W" * 24
    made = server.create(
        "pocha",
        name=long,
        params={"players": "8", "schedule": "[1]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 7,
        bot_delay=0.05,
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.goto(f"{server.url}/t/{made['code']}")
    p.wait_for_selector(".waiting .start")
    assert p.evaluate(INSIDE, ".seat-list .who") == [True] * 8
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)
    p.wait_for_timeout(300)
    fits(p)
    assert p.evaluate(INSIDE, ".felt .seat .who") == [True] * 8
    mine = p.locator(".felt .seat.me")
    assert str(mine.get_attribute("aria-label")).startswith(long)  # said whole, however cut
    lines = mine.locator(".who").evaluate(
        "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)"
    )
    assert lines <= 2.1, lines
    context.close()


BOWLS = """() => [...document.querySelectorAll(".bowls td")].map((td) => {
  const cell = td.getBoundingClientRect();
  const parts = [...td.children].map((e) => e.getBoundingClientRect());
  const inside = parts.every((r) => r.left >= cell.left - 1 && r.right <= cell.right + 1
    && r.top >= cell.top - 1 && r.bottom <= cell.bottom + 1);
  const [name, chips] = [td.querySelector(".bowl-name"), td.querySelector("strong")]
    .map((e) => e.getBoundingClientRect());
  return [Math.round(cell.left), Math.round(cell.top), Math.round(cell.width), inside,
    Math.abs(name.bottom - chips.bottom) < 3];
})"""


def test_poch_s_nine_bowls_stand_in_three_even_columns_on_a_phone(
    browser: Any, server: Server
) -> None:
    """On a phone 375 px across, Poch's bowls wrapped as ragged rows (ás, rei on one line,
    dama alone on the next, four on the third): now three columns of one width, each bowl's
    name beside its chips and who took it under them, inside the bowl's own cell."""
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    p = context.new_page()
    start_with_bots(p, server, "poch", seed=6)
    p.wait_for_selector(".bowls:not([hidden]) td .taker")
    fits(p)
    cells = p.evaluate(BOWLS)
    assert len(cells) == 9
    assert len({left for left, *_ in cells}) == 3, cells
    assert len({width for _, _, width, *_ in cells}) == 1, cells
    for row in range(3):
        assert len({top for _, top, *_ in cells[3 * row : 3 * row + 3]}) == 1, cells
    assert all(inside and beside for *_, inside, beside in cells), cells
    shot(p, "phone-poch-bowls")
    context.close()


def test_a_bid_the_dealers_hook_forbids_is_shown_struck_through_and_says_why(
    browser: Any, server: Server
) -> None:
    spec = "pocha(players=3, schedule=[2])"
    game = tapete.load(spec)
    # Seeds where you deal: you bid last, and the hook forbids the bid that would make the
    # bids add up to 2 (unless the bots' bids already pass 2: then try the next table).
    for seed in (s for s in range(40) if game.new_state(s).deal.dealer == 0):
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        p = context.new_page()
        start_with_bots(p, server, spec, seed)
        p.wait_for_selector(".buttons .act")
        struck = p.locator(".buttons button.refused")
        if struck.count() == 0:
            context.close()
            continue
        labels = [b.inner_text() for b in p.locator(".buttons button").all()]
        assert sorted(labels) == labels == ["bid 0", "bid 1", "bid 2"]  # in its place
        struck.click(force=True)  # aria-disabled: a person can still press it to read why
        assert "hook" in p.locator(".hint-box").inner_text()
        assert p.locator(".buttons .act").count() == 2  # the others still play
        context.close()
        return
    raise AssertionError("no table where the hook forbade a bid")


def test_the_seed_check_and_the_replay_viewer(browser: Any, server: Server) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[2, 3]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        seed=77,
        bot_delay=0.02,
    )
    code = made["code"]
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    errors: list[str] = []
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    p.goto(f"{server.url}/t/{code}")
    p.wait_for_selector(".tools .fair .seed-hash")
    published = p.locator(".tools .fair .seed-hash").inner_text()
    assert published == server.get(f"/api/tables/{code}")["seed_hash"]
    assert p.locator(".tools .fair .check-deal").count() == 0  # the seed is still secret
    salt = server.app.state.rooms.get(code).truth.seed_salt
    assert p.locator(".tools .fair .seed-salt").count() == 0 and salt not in p.content()
    # The test chose the seed, as a host may: everyone at the table is told from the start.
    assert "could know every hand" in p.locator(".tools .fair .chosen-seed").inner_text()
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)

    # While the match runs, the replay shows my seat only: all hands are not on offer.
    running = context.new_page()
    running.on("pageerror", lambda e: errors.append(str(e)))
    running.goto(f"{server.url}/replay/{code}")
    running.wait_for_selector(".replay-seat")
    assert running.locator(".viewer option[value=all]").is_disabled()
    assert running.locator(".replay-seat.open").count() == 1
    assert running.locator(".replay-seat[data-seat='0'] .cards svg").count() == 2
    assert running.locator(".replay-seat[data-seat='1'] .cards svg").count() == 0
    running.close()

    play_until(p, ".summary:not([hidden])", random.Random(7))
    p.wait_for_selector(".summary .fair .check-deal")
    assert p.locator(".summary .fair .seed").inner_text() == "77"
    assert p.locator(".summary .fair .seed-salt").inner_text() == salt
    p.click(".summary .fair .check-deal")
    p.wait_for_selector(".summary .fair .deals-ok")
    assert p.locator(".summary .fair .hash-ok").count() == 1
    assert p.locator(".summary .fair .hash-seen").count() == 1  # as this browser saw it before
    assert p.locator(".summary .fair li.chosen-seed").count() == 1
    assert p.locator(".summary .fair .bad:not(.chosen-seed)").count() == 0
    shot(p, "seed-check")

    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    assert p.locator(".viewer").input_value() == "all"
    assert p.locator(".replay-seat.open").count() == 4
    assert all(
        p.locator(f".replay-seat[data-seat='{s}'] .cards svg").count() == 2 for s in range(4)
    )
    assert "hand 1 of 2 in the record" in p.locator(".where").inner_text()
    p.click("[data-go='next-trick']")
    assert p.locator(".replay-trick figure").count() == 4
    # The narrator's words: the deal, four bids, four cards, the trick.
    assert p.locator(".replay-log li").count() == 1 + 4 + 4 + 1
    assert p.locator(".replay-log li").first.inner_text().startswith("hand 1: ")
    assert (
        sum(p.locator(f".replay-seat[data-seat='{s}'] .cards svg").count() for s in range(4)) == 4
    )
    p.click("[data-go='back']")
    assert p.locator(".replay-log li").count() == 1 + 4 + 3
    p.click("[data-go='next-deal']")
    assert "hand 2 of 2 in the record" in p.locator(".where").inner_text()
    assert p.locator(".replay-seat[data-seat='2'] .cards svg").count() == 3
    p.select_option(".viewer", "1")
    assert p.locator(".replay-seat.open").count() == 1
    assert p.locator(".replay-seat[data-seat='2'] .cards svg").count() == 0
    p.click("[data-go='prev-deal']")
    p.click("[data-go='prev-deal']")
    assert "hand 1 of 2 in the record" in p.locator(".where").inner_text()
    assert p.locator(".fair .seed-salt").inner_text() == salt
    p.click(".fair .check-deal")
    p.wait_for_selector(".fair .deals-ok")
    assert p.locator(".fair .hash-ok").count() == 1  # the record's salt and seed, hashed here
    shot(p, "replay")
    # A match from before salts published the hash of its seed alone: it checks out as it did.
    p.evaluate(
        """async () => {
          const { fairBox, sha256Hex, wireFair } = await import("/static/fair.js");
          const box = document.createElement("div");
          box.id = "unsalted";
          box.innerHTML = fairBox("OLD00", 0, await sha256Hex("77"), 77);
          document.body.append(box);
          wireFair(box);
        }"""
    )
    assert p.locator("#unsalted .seed-salt").count() == 0
    p.click("#unsalted .check-deal")
    # No such table here: only the hash is checked, and the deals are said to be unchecked
    # (the refusal's sentence), not to be wrong.
    p.wait_for_selector("#unsalted .deals-unchecked")
    assert p.locator("#unsalted .deals-bad").count() == 0
    assert (
        "there is no table with that code" in p.locator("#unsalted .deals-unchecked").inner_text()
    )
    assert p.locator("#unsalted .hash-ok").count() == 1
    context.close()
    assert errors == [], errors


def bots_match(
    server: Server, page: Any, game: str, params: dict[str, str], level: str, seed: int
) -> tuple[str, Any]:
    """A match of bots of ``level`` in every seat, started by its host's page and played to its
    end: the table's code and the match's record."""
    players = int(params.get("players", tapete.load(game).players))
    seats = [{"kind": "bot", "level": level}] * players
    made = server.create(game, params=params, seats=seats, seed=seed)
    code = made["code"]
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    page.goto(f"{server.url}/t/{code}")
    page.click(".waiting .start")
    page.wait_for_selector(".summary:not([hidden])")
    return code, server.get(f"/api/tables/{code}/records/0")


def _blind_deal(server: Server, page: Any) -> tuple[str, int, Any]:
    """A finished match of two random bots to 2 points with a blind mão de ferro (both sides
    on 1: about every other match); its code, the deal's number and the deal."""
    for seed in range(20):
        code, doc = bots_match(server, page, "truco", {"target": "2"}, "random", seed)
        for number, deal in enumerate(doc["deals"]):
            if deal["actions"] and deal["actions"][0]["action"].split()[-1].isdecimal():
                return code, number, deal
    raise AssertionError("no blind mão de ferro in 20 matches")


def test_a_table_and_its_replay_name_the_game_and_its_deals_in_the_player_s_words(
    browser: Any, server: Server
) -> None:
    """Waiting for its start, a table is named as the lobby names its game and options, not
    by its spec; its replay too, and numbers its deals in the game's word, among those in the
    record, and its buttons go from deal to deal by that word too."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    code = open_with_bots(p, server, "pocha(schedule=[2])", 5)
    assert p.locator(".title").inner_text() == "Pocha — tamaño de las manos: [2]"
    p.select_option("#lang", "pt")
    wait_until(p, "document.querySelector('.title').textContent.includes('tamanho')")
    assert "schedule" not in p.locator(".title").inner_text()
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(5))
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    assert "Pocha — tamanho" in p.locator("h1").inner_text()
    assert p.locator(".where").inner_text().startswith("mão 1 de 1 no registro · ")
    # and goes from hand to hand by the same word ("rodada" is a Truco hand's round, a trick)
    assert p.locator("[data-go='next-deal']").inner_text() == "próxima mão ▶|"
    assert p.locator("[data-go='prev-deal']").inner_text() == "|◀ mão anterior"
    made = server.create(
        "pottle",
        params={"deals": "2", "extra_deals": "0"},
        seats=[{"kind": "bot", "level": "random"}] * 4,
        seed=3,
    )
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.evaluate("localStorage.setItem('tapete:lang', 'es')")
    p.goto(f"{server.url}/t/{made['code']}")
    p.click(".waiting .start")
    p.wait_for_selector(".summary:not([hidden])")
    p.goto(f"{server.url}/replay/{made['code']}?match=0")
    p.wait_for_selector(".replay-seat")
    p.click("[data-go='next-deal']")
    assert p.locator(".where").inner_text().startswith("reparto 2 de 2 en el registro · ")
    assert p.locator("[data-go='next-deal']").inner_text() == "reparto siguiente ▶|"
    context.close()
    assert errors == [], errors


def test_a_truco_replay_goes_round_by_round_in_the_words_of_its_rules(
    browser: Any, server: Server
) -> None:
    """A Truco replay in Portuguese went "◀◀ vaza anterior" and "próxima vaza ▶▶" through a
    hand whose log and rules say rodadas; the buttons say rodada, and a hand is a mão."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="pt-BR")
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    code, _ = bots_match(server, p, "truco", {"target": "2"}, "random", 3)
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    assert p.locator("[data-go='next-trick']").inner_text() == "próxima rodada ▶▶"
    assert p.locator("[data-go='prev-trick']").inner_text() == "◀◀ rodada anterior"
    assert p.locator("[data-go='next-deal']").inner_text() == "próxima mão ▶|"
    context.close()
    assert errors == [], errors


def test_the_replay_names_an_unnamed_player_and_the_cards_in_the_player_s_words(
    browser: Any, server: Server
) -> None:
    """A Spanish replay named a player who gave no name "player 1" (the table says "jugador
    1"), and its log, and what a screen reader heard of each move, named cards by their codes
    ("muestra 5e") where the table's log says "5 de espadas"."""
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        name="",
        seed=4,
    )
    play_to_the_end(server, made)
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    p = context.new_page()
    p.goto(f"{server.url}/replay/{made['code']}?match=0")
    p.wait_for_selector(".replay-seat")
    assert p.locator(".viewer option").all_inner_texts()[1:3] == ["jugador 1", "bot 2 · al azar"]
    assert p.locator(".replay-seat .name").first.inner_text().startswith("jugador 1")
    for go in (None, "next-trick"):  # the deal and its turned-up card; then a trick
        if go is not None:
            p.click(f"[data-go='{go}']")
        said = p.locator(".replay-said").inner_text()
        assert re.search(r"\b(1[0-2]|[1-9])[oceb]\b", said) is None, said
        assert re.search(r" de (oros|copas|espadas|bastos)\b", said), said
    first = p.locator(".replay-log li").first
    assert first.locator(".card-chip").count() == 1, first.inner_html()
    assert re.search(r" de (oros|copas|espadas|bastos)", first.locator(".sr").inner_text())
    context.close()


def test_the_replay_of_a_blind_mao_de_ferro_takes_each_card_from_its_hand(
    page: Any, server: Server
) -> None:
    """A blind play is recorded by position (``play 2``): the replay finds the card (the seat's
    second still held, in the order dealt), shows it on the table and takes it from the hand."""
    p = page
    code, number, deal = _blind_deal(server, p)
    first = deal["actions"][0]
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    for _ in range(number):
        p.click("[data-go='next-deal']")
    assert f"hand {number + 1} of" in p.locator(".where").inner_text()
    seat = first["seat"]
    held = p.locator(f".replay-seat[data-seat='{seat}'] .cards svg")
    assert held.count() == 3
    p.click("[data-go='forward']")
    assert held.count() == 2
    card = deal["hands"][seat][int(first["action"].split()[1]) - 1]
    assert p.locator(f".replay-seat[data-seat='{seat}'] [data-card='{card}']").count() == 0
    assert p.locator(f".replay-trick figure[data-seat='{seat}'] svg:not(.back)").count() == 1


def test_a_poch_replay_takes_a_run_from_every_hand_that_laid_it(page: Any, server: Server) -> None:
    """In Poch's race a card played goes on by itself, each next card of its suit laid by
    whoever holds it: the replay takes each from its holder's hand, shows the run on the table
    (not every card of the race piled up), and its buttons go run by run."""
    p = page
    for seed in range(10):
        code, doc = bots_match(server, p, "poch", {"rounds": "1"}, "easy", seed)
        deal = doc["deals"][0]
        runs = [e for e in deal["events"] if e["type"] == "run"]
        if len(runs) >= 2 and len(set(runs[1]["seats"])) >= 2:
            break
    else:
        raise AssertionError("no run laid by two players in 10 matches")
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    assert p.locator("[data-go='next-trick']").inner_text() == "next run ▶▶"
    for run in runs[:2]:
        p.click("[data-go='next-trick']")
        assert p.locator(".replay-trick figure").count() == len(run["cards"])
        for seat, card in zip(run["seats"], run["cards"], strict=True):
            assert p.locator(f".replay-seat[data-seat='{seat}'] [data-card='{card}']").count() == 0
            assert p.locator(f".replay-trick figure[data-seat='{seat}']").count() >= 1
    held = sum(len(hand) for hand in deal["hands"]) - sum(len(r["cards"]) for r in runs[:2])
    assert p.locator(".replay-seat .cards svg").count() == held


def test_a_player_s_profile_and_the_leaderboard(page: Any, server: Server) -> None:
    p = page
    create_in_lobby(p, server, "pocha", schedule="[1]")
    me = p.evaluate("JSON.parse(localStorage.getItem('tapete:player'))")
    assert me["name"] == "Ana" and me["token"]
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(11))
    p.wait_for_selector(".summary .fair .check-deal")  # the record and results are kept
    assert p.locator(".summary .profiles a").count() == 4  # Ana and the three random bots
    p.click(".summary .board-link")
    p.wait_for_selector(".leaderboard tbody tr")
    # Games by the names people read: "Pocha", "Oh Hell", not the ids pocha and oh_hell.
    assert p.locator(".leaderboard-page h1").inner_text() == "Leaderboard: Pocha"
    assert p.locator(f".leaderboard a[href='/players/{me['id']}']").count() == 1
    bot = p.locator(".leaderboard a[href='/players/bot%3Arandom']")
    assert bot.inner_text() == "bot (random)"  # as the lobby's seats name it, not "bot:random"
    rating = ".leaderboard td.rating"
    assert re.fullmatch(r"-?\d+\.\d", p.locator(rating).first.inner_text())
    # Spanish and Portuguese write a rating of 12.5 as 12,5.
    comma = f"() => /^-?\\d+,\\d$/.test(document.querySelector('{rating}')?.textContent ?? '')"
    p.select_option("#lang", "pt")
    p.wait_for_function(comma)
    p.select_option("#lang", "es")
    p.wait_for_selector(".leaderboard a[href='/players/bot%3Arandom'] bdi:text-is('bot (al azar)')")
    p.wait_for_function(comma)
    bot.click()
    assert p.locator(".profile-page .who").inner_text() == "bot (al azar)"
    p.go_back()
    p.select_option("#lang", "en")
    p.wait_for_selector(".leaderboard tbody tr")
    p.click(f".leaderboard a[href='/players/{me['id']}']")
    p.wait_for_selector(".profile-page .ratings")
    assert p.locator(".profile-page .who").inner_text() == "Ana"
    assert int(p.locator(".profile-page .played strong").inner_text()) >= 1
    assert p.locator(".profile-page .ratings tbody tr").count() >= 1
    assert p.locator(".profile-page .ratings tbody th").first.inner_text() == "Pocha"
    assert p.locator(".profile-page .results tbody td").first.inner_text() == "Pocha"
    # Each match's record is a link to download it, which works after its table expires too.
    link = p.locator(".profile-page .results tbody td a[download]").first
    code, match = link.inner_text().split(".")
    assert link.get_attribute("href") == f"/api/tables/{code}/records/{match}"
    assert server.get(f"/api/tables/{code}/records/{match}")["format"] == "tapete-record/1"
    p.goto(server.url + "/")
    p.wait_for_selector(".player-bar .my-profile")
    assert "Ana" in p.locator(".player-bar").inner_text()
    assert p.locator(".player-bar a[href='/leaderboard/oh_hell']").inner_text() == "Oh Hell"
    assert (
        p.locator("select[name=game] option[value=oh_hell]").inner_text().startswith("Oh Hell — ")
    )
    shot(p, "lobby-player")


def test_names_that_look_alike_on_the_leaderboard_are_told_apart(page: Any, server: Server) -> None:
    """A "Lia" and a full-width "ＬＩＡ" read as one player, as do a Persian name written with
    its zero-width non-joiner and without it: each gets its short id, as two players of the
    very same name do."""
    ids = []
    for name in ("Lia", "\uff2c\uff29\uff21", "می\u200cروم", "میروم"):
        me = server.post("/api/players", {"name": name})
        ids.append(me["id"])
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        made = server.create("pocha", params={"schedule": "[1]"}, seats=seats, player=me["token"])
        play_to_the_end(server, made)
    p = page
    p.goto(server.url + "/leaderboard/pocha")
    p.wait_for_selector(".leaderboard tbody tr")
    for player in ids:
        link = p.locator(f".leaderboard a[href='/players/{player}']")
        assert link.locator(".short-id").inner_text() == f"#{player[:6]}"


def start_live_table(page: Any, live: Server) -> None:
    """A table of Pocha (one hand of 5) made on the server process ``live``, you in seat 0
    against random bots, opened in ``page`` with your seat's token and started."""
    made = live.create(
        "pocha",
        params={"schedule": "[5]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        bot_delay=0.05,
    )
    page.goto(live.url + "/")
    page.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    page.goto(f"{live.url}/t/{made['code']}")
    page.click(".waiting .start")


# Every WebSocket the page opens, and the views each one was sent: a test drops one as a network
# would, and waits for the view that follows the reconnection.
WATCH_SOCKETS = """window.sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.views = 0;
    this.made = performance.now();
    this.addEventListener("message", (e) => (this.views += JSON.parse(e.data).type === "view"));
    window.sockets.push(this);
  }
};"""


def test_the_browser_reconnects_by_itself_after_a_kill_9(page: Any, tmp_path: Path) -> None:
    """The server dies (SIGKILL) mid-hand and comes back on the same database: the page says it
    is reconnecting, then shows the same hand and lets the player go on."""
    import signal

    from webclient import free_port, process

    port = free_port()
    db = f"sqlite:///{tmp_path / 'tapete.db'}"
    live = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    p = page
    p.add_init_script(WATCH_SOCKETS)
    with process(port, db, tmp_path / "server.log") as proc:
        start_live_table(p, live)
        play_until(p, ".hand.my-turn .card-btn.legal", random.Random(4), limit=3)
        hand = [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()]
        shown = p.locator(".log li").all_inner_texts()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        p.wait_for_selector(".banner:not([hidden])")
    with process(port, db, tmp_path / "server.log"):
        p.wait_for_selector(".banner", state="hidden", timeout=20_000)
        wait_until(p, "window.sockets.at(-1).readyState === 1 && window.sockets.at(-1).views > 0")
        p.wait_for_selector(".hand.my-turn .card-btn.legal")
        assert [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()] == hand
        assert p.locator(".log li").all_inner_texts() == shown  # each entry once
        p.locator(".hand.my-turn .card-btn.legal").first.click()
        wait_until(p, f"document.querySelectorAll('.hand .card-btn').length < {len(hand)}")


def test_after_a_dropped_connection_the_log_shows_each_entry_once(
    page: Any, server: Server
) -> None:
    """The connection drops mid-hand and the page reconnects by itself: the recent log the
    server sends again replaces the log shown, it is not added to it."""
    p = page
    p.add_init_script(WATCH_SOCKETS)
    create_in_lobby(p, server, "pocha", schedule="[5]")
    p.click(".waiting .start")
    play_until(p, ".hand.my-turn .card-btn.legal", random.Random(6), limit=3)
    shown = p.locator(".log li").all_inner_texts()
    assert len(shown) > 4  # the deal and the bids at least
    p.evaluate("window.sockets.at(-1).close()")
    p.wait_for_selector(".banner:not([hidden])")
    wait_until(p, "window.sockets.length === 2 && window.sockets[1].views > 0")
    p.wait_for_selector(".banner", state="hidden")
    assert p.locator(".log li").all_inner_texts() == shown


# What the page says, as it changes: every text the banner shows in turn ("" while hidden, a
# repeat not counted) and every toast, so a test sees even what showed for a moment.
WATCH_WORDS = """window.banners = [];
window.toasts = [];
document.addEventListener("DOMContentLoaded", () => {
  const toast = document.getElementById("toast");
  new MutationObserver(() => {
    const banner = document.querySelector(".banner");
    const text = banner && !banner.hidden ? banner.textContent : "";
    if (window.banners.at(-1) !== text) window.banners.push(text);
    if (toast.classList.contains("shown") && window.toasts.at(-1) !== toast.textContent)
      window.toasts.push(toast.textContent);
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
                              characterData: true });
});"""


def test_a_table_unavailable_for_a_moment_says_so_until_it_is_back(
    browser: Any, tmp_path: Path
) -> None:
    """A server of several loses Redis mid-hand: the page's banner says, in the person's
    language, that the table is unavailable for a moment and is being tried again — through
    every connection the server turns away meanwhile, with no toast and no "connection lost" —
    and once Redis is back the banner goes and the same hand is played on."""
    from contextlib import ExitStack

    from conftest import database_url
    from webclient import free_port, own_redis, process

    redis_port, port = free_port(), free_port()
    live = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    shared = ["--redis", f"redis://127.0.0.1:{redis_port}", "--lease", "1", "--bot-processes", "0"]
    unavailable = "esta mesa no está disponible por un momento: reintentando…"
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    errors: list[str] = []
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.add_init_script(WATCH_SOCKETS + "\n" + WATCH_WORDS)
    with database_url("postgresql", tmp_path) as db, ExitStack() as stack:
        redis_server = stack.enter_context(own_redis(redis_port))
        stack.enter_context(process(port, db, tmp_path / "server.log", shared))
        start_live_table(p, live)
        p.wait_for_selector(".hand .card-btn")
        hand = [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()]

        redis_server.kill()
        redis_server.wait(10)
        p.wait_for_selector(".banner:not([hidden])", timeout=20_000)
        assert p.locator(".banner").inner_text() == unavailable
        shot(p, "table-unavailable")
        turned_away = p.evaluate("window.sockets.length") + 2
        wait_until(p, f"window.sockets.length >= {turned_away}")  # tried again, turned away
        assert p.locator(".banner").inner_text() == unavailable

        stack.enter_context(own_redis(redis_port))  # Redis is back
        p.wait_for_selector(".banner", state="hidden", timeout=30_000)
        wait_until(p, "window.sockets.at(-1).readyState === 1 && window.sockets.at(-1).views > 0")
        assert [c.get_attribute("data-card") for c in p.locator(".hand .card-btn").all()] == hand
        assert p.evaluate("window.banners") == ["", unavailable, ""]
        assert p.evaluate("window.toasts") == []
    context.close()
    assert errors == [], errors


def _home_network_browser(browser: Any) -> Any:
    """A browser that reaches this machine as tapete.home, as a server on the home network is
    reached (http://192.168.1.5:8000): a page there is not a secure context, as on localhost."""
    return browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*ARGS, "--host-resolver-rules=MAP tapete.home 127.0.0.1"],
    )


def test_the_seed_is_checked_in_the_browser_on_a_server_of_the_home_network_too(
    browser: Any, server: Server
) -> None:
    """Over plain http the browser has no SubtleCrypto: the check of the seed said, in red,
    that the browser cannot compute SHA-256, on the very servers friends play on."""
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
    )
    play_to_the_end(server, made)
    chromium = _home_network_browser(browser)
    p = chromium.new_page(locale="pt-BR")
    home = server.url.replace("127.0.0.1", "tapete.home")
    p.goto(home + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.goto(f"{home}/t/{made['code']}")
    assert p.evaluate("!window.isSecureContext && !window.crypto.subtle")
    p.click(".summary .fair .check-deal")
    p.wait_for_selector(".summary .fair .deals-ok")
    said = p.locator(".summary .fair .hash-ok").inner_text()
    assert said == "✔ A semente dá o SHA-256 publicado (verificado no seu navegador)", said
    assert p.locator(".summary .fair .bad").count() == 0
    chromium.close()


def test_copy_link_copies_it_on_a_server_of_the_home_network_over_plain_http(
    browser: Any, server: Server
) -> None:
    """At home the server is http://192.168.1.5:8000, where the browser has no clipboard API
    (not a secure context): "copy link" copied nothing, and its toast showing the link let the
    host paste an empty message to friends."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    home = server.url.replace("127.0.0.1", "tapete.home")
    chromium = _home_network_browser(browser)
    context = chromium.new_context(locale="es-ES")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    p = context.new_page()
    p.goto(home + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.goto(f"{home}/t/{made['code']}")
    p.wait_for_selector(".code-box .copy")
    assert p.evaluate("!window.isSecureContext && !navigator.clipboard")
    p.focus(".code-box .copy")
    p.keyboard.press("Enter")
    p.wait_for_selector(f"#toast.shown:has-text('Enlace copiado: {home}/t/{made['code']}')")
    assert p.evaluate("document.activeElement.matches('.code-box .copy')")  # the keyboard stays
    reader = context.new_page()  # a page where the clipboard can be read
    reader.goto(server.url + "/")
    assert reader.evaluate("navigator.clipboard.readText()") == f"{home}/t/{made['code']}"
    chromium.close()


def test_tokens_never_travel_in_the_pages_urls(browser: Any, server: Server) -> None:
    """Renaming the player, downloading a running match's record and opening the replay: the
    identity and seat tokens go in an Authorization header, never in a URL (where access logs
    and the browser's history would keep them)."""
    me = server.post("/api/players", {"name": "Old name"})
    context = browser.new_context(viewport={"width": 1360, "height": 900}, accept_downloads=True)
    requests: list[Any] = []
    context.on("request", lambda r: requests.append(r))
    errors: list[str] = []
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:player', JSON.stringify({json.dumps(me)}))")
    code = create_in_lobby(p, server, "pocha", schedule="[3]")
    seat_token = p.evaluate(f"localStorage.getItem('tapete:token:{code}')")
    assert seat_token
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)

    with p.expect_download() as caught:
        p.click(".tools .download")
    download = caught.value
    assert download.suggested_filename == f"tapete-{code}-0.json"
    saved = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert saved["redacted"]["seat"] == 0  # my seat's record: the token was shown

    with context.expect_page() as opened:
        p.click(".tools .replay-link")
    replay = opened.value
    replay.on("pageerror", lambda e: errors.append(str(e)))
    replay.wait_for_selector(".replay-seat")
    assert replay.locator(".replay-seat.open").count() == 1  # my hand, as my seat may see it

    urls = [r.url for r in requests]
    assert any("/api/tables/" in u and "/record" in u for u in urls)
    assert not [u for u in urls if seat_token in u or me["token"] in u or "token=" in u]
    bearers = {r.url.split("?")[0]: r.headers.get("authorization") for r in requests}
    assert bearers[f"{server.url}/api/players/me"] == f"Bearer {me['token']}"  # the rename
    assert bearers[f"{server.url}/api/tables/{code}/record"] == f"Bearer {seat_token}"
    assert server.get("/api/players/me", {"Authorization": f"Bearer {me['token']}"})["name"] == (
        "Ana"
    )
    context.close()
    assert errors == [], errors


ORDER = """([code, names]) => {
  const span = [...document.querySelectorAll("#tables li a")]
    .find((a) => a.querySelector("strong").textContent === code).querySelector("span");
  const text = span.textContent;
  return names.map((name) => {
    const range = document.createRange();
    const [node, at] = (function find(n, offset) {
      for (const child of n.childNodes) {
        const length = child.textContent.length;
        if (offset < length) return child.nodeType === 3 ? [child, offset] : find(child, offset);
        offset -= length;
      }
    })(span, text.indexOf(name));
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    const box = range.getBoundingClientRect();
    return [Math.round(box.left), Math.round(box.right)];
  });
}"""


def test_the_lobby_lists_people_of_right_to_left_names_in_their_seats_order(
    browser: Any,
) -> None:
    """Two Hebrew names and an Arabic one, listed "שלום, דנה, سارة!", ran together as one
    right-to-left line: the first person stood last, and سارة's "!" at the far left of the
    list. Each name is set apart now: read left to right, the people come in seat order."""
    names = ["שלום", "דנה", "سارة!"]
    with running() as server:  # its own lobby: this table on its first page
        made = server.create("pocha", name=names[0], seats=[{"kind": "human"}] * 4)
        for name in names[1:]:
            server.post(f"/api/tables/{made['code']}/join", {"name": name})
        context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
        p = context.new_page()
        p.goto(server.url + "/")
        p.wait_for_selector(f"#tables li a:has-text('{made['code']}')")
        boxes = p.evaluate(ORDER, [made["code"], names])
        # Each name's first letter stands right of the previous name's: reading order kept.
        assert boxes == sorted(boxes), boxes
        context.close()


def test_the_lobby_lists_the_open_tables_a_page_at_a_time(page: Any) -> None:
    with running() as live:
        codes = {live.create("pocha", public=True)["code"] for _ in range(25)}
        p = page
        p.goto(live.url + "/")
        p.wait_for_selector("#tables li a")
        assert p.locator("#tables li").count() == 20
        assert "Pocha" in p.locator("#tables li a").first.inner_text()  # the game's name
        assert p.locator(".pager .page-of").inner_text() == "page 1 of 2"
        assert p.locator(".pager .prev-page").get_attribute("aria-disabled") == "true"
        first = {a.inner_text().split()[0] for a in p.locator("#tables li a strong").all()}
        p.focus(".pager .next-page")  # by keyboard: the focus stays on the button at the end
        p.keyboard.press("Enter")
        wait_until(p, "document.querySelectorAll('#tables li').length === 5")
        assert p.locator(".pager .page-of").inner_text() == "page 2 of 2"
        assert p.locator(".pager .next-page").get_attribute("aria-disabled") == "true"
        assert p.evaluate("document.activeElement.classList.contains('next-page')")
        p.keyboard.press("Enter")  # past the last page: nothing
        p.wait_for_timeout(300)
        assert p.locator(".pager .page-of").inner_text() == "page 2 of 2"
        second = {a.inner_text() for a in p.locator("#tables li a strong").all()}
        assert first | second == codes and not first & second


def test_a_rate_limit_is_told_in_the_player_s_language(browser: Any) -> None:
    from tapete.web import RateLimits

    with running(rate_limits=RateLimits.parse(["tables=1/minute"])) as live:
        context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
        p = context.new_page()
        create_in_lobby(p, live, "pocha")
        p.goto(live.url + "/")
        p.fill('input[name="name"]', "Ana")
        p.click("#create button[type=submit]")
        p.wait_for_selector("#toast.shown")
        said = p.locator("#toast").inner_text()
        assert said.startswith("Demasiadas solicitudes desde tu dirección"), said
        assert p.url == live.url + "/"  # no table was made: the lobby stays
        context.close()


def test_a_friend_the_server_makes_no_player_for_is_told_and_not_seated_without_one(
    browser: Any,
) -> None:
    """Eleven friends behind one address: the one past the players' limit once sat down with
    no player without a word, and the match's results and ratings went to nobody."""
    from tapete.web import RateLimits
    from tapete.web.app import open_store

    with running(
        open_store("sqlite://"), rate_limits=RateLimits.parse(["players=1/minute"])
    ) as live:
        made = live.create("pocha", seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
        first = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
        ana = first.new_page()
        ana.goto(f"{live.url}/t/{made['code']}")
        ana.fill(".join-name", "Bea")
        ana.click("[data-sit='1']")
        ana.wait_for_selector(".seat-list li:nth-child(2) .who:has-text('Bea')")
        assert ana.evaluate("JSON.parse(localStorage.getItem('tapete:player')).name") == "Bea"
        second = browser.new_context(viewport={"width": 1360, "height": 900}, locale="pt-BR")
        joao = second.new_page()
        joao.goto(f"{live.url}/t/{made['code']}")
        joao.fill(".join-name", "João")
        joao.click("[data-sit='2']")
        joao.wait_for_selector("#toast.shown")
        said = joao.locator("#toast").inner_text()
        assert said.startswith("Pedidos demais do seu endereço"), said
        assert joao.locator("[data-sit='2']").count() == 1  # the seat is still free
        joao.goto(live.url + "/")
        joao.fill('input[name="name"]', "João")
        joao.click("#create button[type=submit]")
        joao.wait_for_selector("#toast.shown")
        assert joao.locator("#toast").inner_text().startswith("Pedidos demais do seu endereço")
        assert joao.url == live.url + "/"  # no table was made for nobody's results
        first.close()
        second.close()


# --- the screens: layout, words, names ---------------------------------------------------------


def _open_table(browser: Any, server: Server, made: dict[str, Any], lang: str = "en") -> Any:
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    p = context.new_page()
    p.on("pageerror", lambda e: ERRORS.append(str(e)))
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.evaluate(f"localStorage.setItem('tapete:lang', '{lang}')")
    p.goto(f"{server.url}/t/{made['code']}")
    return p


ERRORS: list[str] = []  # page errors of the pages opened by _open_table


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("players", [3, 4, 6])
def test_poch_s_bowls_never_cover_a_seat(browser: Any, server: Server, players: int) -> None:
    made = server.create(
        "poch",
        params={"players": str(players)},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1),
        seed=4,
        bot_delay=0.05,
    )
    p = _open_table(browser, server, made)
    p.click(".waiting .start")
    p.wait_for_selector(".bowls:not([hidden]) td")
    assert p.locator(".bowls td").count() == 9
    # Every box measured in one go: bots keep playing, and the table is drawn again after each
    # move, so boxes read one by one could come from different drawings (or a removed element).
    boxes = p.evaluate(
        measuring(
            """
            return {
                facts: [".bowls", ".info"].map((s) => box(document.querySelector(s))),
                seats: [...document.querySelectorAll(".felt .seat")].map(box),
            };
            """
        )
    )
    assert len(boxes["seats"]) == players
    for box in boxes["facts"]:
        for seat in boxes["seats"]:
            assert not _overlap(box, seat), (box, seat)
    shot(p, f"poch-{players}-bowls")
    p.context.close()
    assert ERRORS == []


SEAT_BOXES = """() => [...document.querySelectorAll(".felt .seat")].map((e) => {
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
})"""


@pytest.mark.parametrize(
    ("spec", "large"), [("pocha(players=8, schedule=[3])", False), ("poch(players=6)", True)]
)
def test_many_seats_on_a_laptop_s_short_screen_never_pile_onto_each_other(
    browser: Any, server: Server, spec: str, large: bool
) -> None:
    """At 1366 x 768 the felt is short (the hand stays in view): eight seats' boxes, or six with
    large cards, once lay over each other's names and cards."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:large-cards', '{int(large)}')")
    start_with_bots(p, server, spec, seed=8)
    p.wait_for_selector(".felt .seat .backs svg")
    p.wait_for_timeout(300)
    seats = p.evaluate(SEAT_BOXES)
    assert len(seats) == tapete.load(spec).players
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            assert not _overlap(a, b), (a, b)
    shot(p, f"laptop-{spec.split('(')[0]}-{len(seats)}{'-large' if large else ''}")
    context.close()


TRICK_AND_SEATS = measuring(
    """
  return {
    seats: [...document.querySelectorAll(".felt .seat")].map(box),
    trick: [...document.querySelectorAll(".felt .trick .played")].map(box),
    felt: box(document.querySelector(".felt")),
    text: parseFloat(getComputedStyle(document.body).fontSize),
    card: document.querySelector(".hand .card-btn").getBoundingClientRect().width,
  };
"""
)


@pytest.mark.parametrize("root", [16, 20])
@pytest.mark.parametrize("width", [375, 1280])
def test_a_larger_text_size_set_in_the_browser_gives_larger_text_and_the_table_still_fits(
    browser: Any, server: Server, width: int, root: int
) -> None:
    """Sizes in px ignored the text size a person sets in their browser (its default font
    size, not the zoom): the page's text stayed 17 px. It follows it now, and the table lays
    out as well at 20 px as at 16: nothing off the screen, no seat over another or over the
    trick, the cards grown with the text."""
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US")
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    # The browser's own setting, as its settings page sets it (chrome://settings/fonts).
    cdp = context.new_cdp_session(p)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": root, "fixed": 13}})
    start_with_bots(p, server, "truco(players=4)", seed=4)
    p.wait_for_selector(ACTIONABLE)
    play_until(p, ".felt .trick .played", random.Random(4), prefer_cards=True)
    p.wait_for_timeout(300)
    got = p.evaluate(TRICK_AND_SEATS)
    phone = width <= 600
    assert got["text"] == pytest.approx((15 if phone else 17) * root / 16), got["text"]
    assert got["card"] == pytest.approx((62 if phone else 84) * root / 16, abs=1), got["card"]
    fits(p)
    seats = got["seats"]
    assert len(seats) == 4
    for i, a in enumerate(seats):
        for b in [*seats[i + 1 :], *got["trick"]]:
            assert not _overlap(a, b), (a, b)
    felt = got["felt"]
    for box in [*seats, *got["trick"]]:
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"]
    shot(p, f"text-size-{root}px-{width}")
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_the_lobby_and_the_rules_fit_a_phone_at_a_larger_text_size(
    browser: Any, server: Server, game: str
) -> None:
    """At a 20 px text size a rule option as written (forbid_pointless_raise=false) or a
    source's address, one long word, widened the rules past a phone's screen. (The full
    reference's examples scroll in their own box, as at any text size.)"""
    context = browser.new_context(viewport={"width": 375, "height": 800}, locale="en-US")
    p = context.new_page()
    cdp = context.new_cdp_session(p)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 20, "fixed": 13}})
    p.goto(server.url + "/")
    p.wait_for_selector("#create")
    fits(p)
    for path in (f"/rules/{game}", f"/rules/{game}?full=1"):
        p.goto(server.url + path)
        p.wait_for_selector(".rules-page h1")
        wide = p.evaluate("document.documentElement.scrollWidth")
        assert wide <= 375, (path, wide)
    context.close()


def test_score_heads_and_chart_legend_show_every_name_whole(page: Any, server: Server) -> None:
    p = page
    create_in_lobby(p, server, "pocha", schedule="[1]")
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(21))
    names = p.locator(".felt .seat .name").all_inner_texts()
    heads = p.locator(".scores thead th[scope=col]")
    assert heads.count() == 4
    for i in range(4):
        head = heads.nth(i)
        full = head.get_attribute("title")
        assert full and any(n.startswith(full) for n in names), (full, names)
        assert head.inner_text().strip() == full.split(" · ")[0]
        # Nothing cut: the text fits its cell.
        assert head.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    for legend in (".side .legend li", ".summary .legend li"):
        shown = p.locator(legend).all_inner_texts()
        titles = [heads.nth(i).get_attribute("title") for i in range(4)]
        assert [s.strip() for s in shown] == titles
        assert all(
            el.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
            for el in p.locator(legend).all()
        )
    assert any(" · " in str(t) for t in titles)  # the bots' levels are in the legend, whole


def test_score_chart_shows_every_series_even_when_two_seats_scored_the_same(
    page: Any, server: Server
) -> None:
    """Two seats with the same score after every deal once drew one line: a colour in the
    legend had no line to be seen. And colour alone told the lines apart."""
    p = page
    p.goto(server.url + "/")
    drawn = p.evaluate(
        """async () => {
          const { scoreChart } = await import("/static/chart.js");
          const box = document.createElement("div");
          box.innerHTML = scoreChart(["Ana", "Bea", "Cai", "Dan"],
            [[1, 1, 0, 3], [2, 2, 1, 0], [0, 0, 2, 1]], "score chart");
          document.body.append(box);
          const series = [...box.querySelectorAll(".score-chart .series")];
          const samples = [...box.querySelectorAll(".legend li .swatch-line")];
          return {
            points: series.map((g) => g.querySelector("polyline").getAttribute("points")),
            dashes: series.map((g) => g.querySelector("polyline").getAttribute("stroke-dasharray")),
            shapes: series.map((g) => g.lastElementChild.getAttribute("class")),
            marks: series.map((g) => g.querySelectorAll(".mark").length),
            legend: samples.map((s) => s.querySelector("line").getAttribute("stroke-dasharray")),
          };
        }"""
    )
    # Ana and Bea scored the same all along: still two lines, each where it can be seen.
    assert len(set(drawn["points"])) == 4
    # Each line has its own dash pattern and marker shape (one marker per total), and the
    # legend shows the same dash beside each name.
    assert len(set(drawn["dashes"])) == 4 and len(set(drawn["shapes"])) == 4
    assert drawn["marks"] == [4, 4, 4, 4]
    assert drawn["legend"] == drawn["dashes"]


def test_the_review_chart_tells_the_seats_apart_by_dash_and_marker_not_only_colour(
    page: Any, server: Server
) -> None:
    """The review's expected-score lines and legend differed by colour alone."""
    p = page
    p.goto(server.url + "/")
    drawn = p.evaluate(
        """async () => {
          const { reviewChart } = await import("/static/review.js");
          const { scoreChart } = await import("/static/chart.js");
          const decisions = [];
          for (let k = 0; k < 40; k++) {
            decisions.push({ seat: k % 4, deal: Math.floor(k / 8), move: (k % 8) + 1,
              values: { a: k % 3, b: 1 }, played: "a", best: "b",
              verdict: k === 5 ? "blunder" : null, played_label: "a", best_label: "b",
              verdict_label: "blunder" });
          }
          const review = { decisions, returns: [[1, 0, 2, 0], [0, 1, 1, 3], [2, 2, 0, 0],
            [1, 1, 1, 1], [0, 3, 0, 2]], unit_label: "points", deal_unit: "hand" };
          const box = document.createElement("div");
          box.innerHTML = reviewChart(review, ["Ana", "Bea", "Cai", "Dan"], null)
            + scoreChart(["Ana", "Bea", "Cai", "Dan"], [[1, 0, 2, 0]], "scores");
          document.body.append(box);
          const series = [...box.querySelectorAll(".expected-chart .series")];
          const legend = (figure) => [...figure.querySelectorAll(".legend li .swatch-line")]
            .map((s) => s.outerHTML);
          const [review_, score] = box.querySelectorAll("figure");
          return {
            dashes: series.map((g) => g.querySelector("polyline").getAttribute("stroke-dasharray")),
            shapes: series.map((g) => [...g.querySelectorAll(".seat-mark")]
              .map((m) => m.getAttribute("class")).join()),
            legend: legend(review_),
            scoreLegend: legend(score),
            clickable: box.querySelectorAll(".expected-chart circle.mark").length,
          };
        }"""
    )
    # Four lines, each with its own dash and its own marker shape.
    assert len(set(drawn["dashes"])) == 4 and len(set(drawn["shapes"])) == 4
    assert all(drawn["shapes"])
    # The legend shows each seat's dash and marker, as the score chart's does for that seat.
    assert drawn["legend"] == drawn["scoreLegend"] and len(set(drawn["legend"])) == 4
    # The seats' markers are not taken for the costly decisions' marks, which take a click.
    assert drawn["clickable"] == 1


def test_a_stand_in_s_move_in_the_review_is_told_apart_and_not_counted_to_the_seat(
    page: Any, server: Server
) -> None:
    """Bea's stand-in blundered: beside the decision it says who played it, with no verdict,
    and neither her summary's blunders nor the chart's marks count it; her own blunder is."""
    p = page
    p.goto(server.url + "/")
    shown = p.evaluate(
        """async () => {
          const { reviewNote, reviewSummary, reviewChart } = await import("/static/review.js");
          const decision = (move, standIn) => ({ seat: 1, deal: 0, move, played: "a",
            best: "b", loss: 9, verdict: "blunder", verdict_label: standIn ? "" : "blunder",
            stand_in: standIn, stand_in_label: standIn ? "played by a stand-in" : "",
            played_label: "bid 1", best_label: "bid 0", values: { b: 1, a: 0 } });
          const review = { decisions: [decision(1, false), decision(2, true)],
            returns: [[0, 0]], unit_label: "points", deal_unit: "hand",
            players: [{ seat: 1, accuracy: 40, loss_per_deal: 9, stand_ins: 1 }] };
          const names = ["Ana", "Bea"];
          const box = document.createElement("div");
          box.innerHTML = reviewSummary(review, names) + reviewChart(review, names, null);
          document.body.append(box);
          const note = (d) => {
            const div = document.createElement("div");
            div.innerHTML = reviewNote(review, d, names);
            return { text: div.textContent, verdicts: div.querySelectorAll(".verdict").length };
          };
          const row = box.querySelector(".review-players tbody tr");
          return { own: note(review.decisions[0]), stood: note(review.decisions[1]),
            row: [...row.querySelectorAll("td")].map((td) => td.textContent),
            seat: row.querySelector("th").textContent,
            marks: box.querySelectorAll(".expected-chart circle.mark").length };
        }"""
    )
    assert shown["own"]["verdicts"] == 1 and "stand-in" not in shown["own"]["text"]
    assert shown["stood"]["verdicts"] == 0
    assert shown["stood"]["text"].startswith("Bea: bid 1 (played by a stand-in)")
    assert shown["row"][-1] == "1"  # blunders: her own one
    assert shown["seat"] == "Bea1 more decision played by a stand-in, not counted"
    assert shown["marks"] == 1


def test_a_seat_with_no_decision_of_its_own_shows_no_accuracy_in_the_review(
    page: Any, server: Server
) -> None:
    """Bea left at once and a stand-in made every move: the review has no accuracy for her
    (null), and her row shows a dash, not "100%" and "0.00"."""
    p = page
    p.goto(server.url + "/")
    row = p.evaluate(
        """async () => {
          const { reviewSummary } = await import("/static/review.js");
          const review = { decisions: [], returns: [[0, 0]], unit_label: "points",
            deal_unit: "hand", players: [{ seat: 1, accuracy: null, loss_per_deal: 0,
            stand_ins: 3 }] };
          const box = document.createElement("div");
          box.innerHTML = reviewSummary(review, ["Ana", "Bea"]);
          return [...box.querySelectorAll(".review-players tbody td")].map((td) => td.textContent);
        }"""
    )
    assert row == ["—", "—", "0", "0", "0"]


def test_right_to_left_names_in_a_log_line_keep_the_order_the_sentence_gives_them(
    page: Any, server: Server
) -> None:
    """ "דנה, אבי and Ana won": unisolated, the two Hebrew names and the comma between them made
    one right-to-left run, and the second winner was shown first. The log sets each name apart
    (<bdi>); the same line as plain text (a terminal's) holds them between U+2068 and U+2069,
    which the browser's bidi algorithm, as a terminal's, honours too."""
    said = who_won("en", ["דנה", "אבי", "Ana"], [0, 1, 2])
    p = page
    p.goto(server.url + "/")
    shown = p.evaluate(
        """async (said) => {
          const { escapeHtml, isolatedNames } = await import("/static/lobby.js");
          const place = (html, plain) => {
            const li = document.createElement("li");
            li.style.cssText = "position: absolute; white-space: nowrap";
            if (plain) li.textContent = html; else li.innerHTML = html;
            document.body.append(li);
            const x = (word) => {
              const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const at = node.data.indexOf(word);
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + word.length);
                return range.getBoundingClientRect().left;
              }
              return null;
            };
            const order = ["דנה", "אבי", "Ana"].map(x);
            const bdi = li.querySelectorAll("bdi").length;
            li.remove();
            return { order, bdi };
          };
          const bare = said.replace(/[\u2068\u2069]/g, "");
          return { log: place(isolatedNames(escapeHtml(said)), false),
            plain: place(said, true), bare: place(bare, true) };
        }""",
        said,
    )
    for how in ("log", "plain"):
        first, second, third = shown[how]["order"]
        assert first < second < third, (how, shown)
    assert shown["log"]["bdi"] == 2
    first, second, _ = shown["bare"]["order"]
    assert second < first  # what the line read as before: the second winner first


def test_the_table_s_log_sets_a_right_to_left_name_apart(page: Any, server: Server) -> None:
    """דנה joins and is away: the log's lines about her (a bot stands in, her bids) hold her
    name in a <bdi>, and read as the sentence goes: her name first, then what she did."""
    game = tapete.load("pocha(schedule=[2])")
    assert game.current_player(game.new_state(1)) == 1  # at seed 1 she bids first: no wait on us
    made = server.create(
        "pocha",
        params={"schedule": "[2]"},
        seats=[{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
        seed=1,
        grace=0.1,
        bot_delay=0.05,
    )
    code = str(made["code"])
    server.post(f"/api/tables/{code}/join", {"name": "דנה"})  # and never comes
    p = page
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    p.goto(f"{server.url}/t/{code}")
    p.click(".waiting .start")
    p.wait_for_selector(".log li bdi:has-text('דנה')", timeout=30_000)
    lines = p.evaluate(
        r"""() => [...document.querySelectorAll(".log li")]
          .filter((li) => li.textContent.includes("דנה"))
          .map((li) => {
            const bdi = li.querySelector("bdi");
            const after = bdi.nextSibling;  // " is away: ...", " bids 0": its first word
            const from = after.data.search(/\S/);
            const to = after.data.indexOf(" ", from);
            const word = document.createRange();
            word.setStart(after, from);
            word.setEnd(after, to < 0 ? after.data.length : to);
            return { text: li.textContent, bare: !li.textContent.includes("\u2068"),
              nameFirst: bdi.getBoundingClientRect().left < word.getBoundingClientRect().left };
          })"""
    )
    assert lines and all(each["bare"] and each["nameFirst"] for each in lines), lines
    assert any(each["text"].startswith("דנה is away") for each in lines), lines


@pytest.mark.parametrize(("spec", "name"), [("truco", "Ad"), ("pocha(schedule=[2])", "Leo 3b")])
def test_a_name_that_reads_as_a_card_stays_a_name_in_the_log_and_what_is_read_out(
    page: Any, server: Server, spec: str, name: str
) -> None:
    """The browser draws the cards a log line names (``Ad plays 3c``: the 3 of clubs); a player
    called "Ad" (a French card: the ace of diamonds) or "Leo 3b" (a Spanish one) was drawn as
    that card wherever the line named them, and a screen reader heard "ace of diamonds plays"."""
    start_with_bots(page, server, spec, 3, host=name)
    rng = random.Random(3)
    for _ in range(3):
        page.wait_for_selector(ACTIONABLE, timeout=20_000)
        click_one(page, rng, prefer_cards=True)
    page.wait_for_selector(f".log li bdi:text-is('{name}')", timeout=20_000)
    log, said = page.evaluate(
        r"""() => [
          [...document.querySelectorAll(".log li")].map((li) => ({
            named: li.firstChild?.nodeName === "BDI" ? li.firstChild.textContent : null,
            chipFirst: li.firstChild?.classList?.contains("card-chip") ?? false,
          })),
          [...document.querySelectorAll(".announce p")].map((p) => p.textContent),
        ]"""
    )
    assert not any(line["chipFirst"] for line in log), log  # no line begins with a card
    assert sum(line["named"] == name for line in log) >= 2, log
    assert sum(name in line.replace("\u2068", "").replace("\u2069", "") for line in said) >= 2, said


def test_a_name_that_reads_as_a_card_stays_a_name_among_the_table_s_facts(
    page: Any, server: Server
) -> None:
    """Truco's facts say who took each round; a fact made of cards alone (the vira) is drawn
    as cards, and one naming a player called "Ad" or "Ks" was drawn as that card."""
    made = server.create(
        "truco", seats=[{"kind": "human"}] * 2, seed=5, grace=0.1, bot_delay=0.05, name="Ad"
    )
    code = str(made["code"])
    server.post(f"/api/tables/{code}/join", {"name": "Ks"})  # and never comes: a bot stands in
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    page.goto(f"{server.url}/t/{code}")
    page.click(".waiting .start")
    rng = random.Random(5)
    # Read in one go, while the fact is there: the stand-in plays at once, and the hand's end
    # takes the rounds away between two separate looks.
    while (facts := page.evaluate(ROUND_TAKER)) is None:
        page.wait_for_selector(f"{ACTIONABLE}, dt:text-is('rounds')", timeout=20_000)
        click_one(page, rng, prefer_cards=True)
    assert facts["cards"] == 0
    assert facts["taker"] in ("Ad", "Ks")
    assert facts["vira"] == 1


# Truco's facts as shown now: who took the first round (its text, and how many cards are
# drawn in it), how many cards the vira's fact draws; null while no round has been taken.
ROUND_TAKER = """() => {
  const fact = (name) =>
    [...document.querySelectorAll("dt")].find((dt) => dt.textContent.trim() === name)
      ?.nextElementSibling;
  const taker = fact("rounds");
  if (!taker) return null;
  return { taker: taker.innerText.trim(), cards: taker.querySelectorAll(".info-card").length,
    vira: fact("vira")?.querySelectorAll(".info-card").length ?? 0 };
}"""


# Where the words of a name (found in text nodes under an element) begin and end on the page.
NAME_BOX = """([selector, word]) => {
  const root = document.querySelector(selector);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    const box = range.getBoundingClientRect();
    return [box.left, box.right];
  }
  return null;
}"""


def test_right_to_left_winners_and_scores_read_in_their_order_at_the_end_and_in_the_replay(
    browser: Any, server: Server
) -> None:
    """Two Hebrew partners win a four-seat Tute: "winners: דנה, אבי" ran the two names and the
    comma between them into one right-to-left run, אבי shown first; a replay's "scores: דנה 0"
    put her score before her name. Each name is set apart (<bdi>): the names read in the order
    the sentence gives them, and each score stands after its name."""
    names = ["Ana", "דנה", "Bea", "אבי"]
    game = tapete.load("tute(players=4)")
    rng, state, moves = random.Random(0), game.new_state(0), []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        moves.append((seat, game.format_action(action)))
        state = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (1, 3)  # דנה and אבי
    made = server.create("tute", params={"players": "4"}, seats=[{"kind": "human"}] * 4, seed=0)
    tokens = [made["token"]] + [
        server.post(f"/api/tables/{made['code']}/join", {"name": name})["token"]
        for name in names[1:]
    ]
    clients = [server.client() for _ in names]
    for client, token in zip(clients, tokens, strict=True):
        client.hello(made["code"], token)
    clients[0].send({"type": "start"})
    version = clients[0].expect("view")["version"]
    for seat, move in moves:
        clients[seat].send({"type": "act", "action": move, "version": version})
        version = clients[0].view_at(version + 1)["version"]
    assert clients[0].view is not None and clients[0].view["result"]["names"] == ["דנה", "אבי"]
    for client in clients:
        client.close()
    p = _open_table(browser, server, made)
    p.get_by_role("dialog").wait_for()
    first, second = (p.evaluate(NAME_BOX, [".summary .winners", n]) for n in ("דנה", "אבי"))
    assert first[1] <= second[0], (first, second)  # דנה, then אבי, left to right
    assert p.locator(".summary .winners bdi").count() == 2
    # The replay's scores name each seat (Tute's four play as two teams): דנה against bots.
    alone = server.create(
        "pocha",
        params={"schedule": "[1]"},
        name="דנה",
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
    )
    play_to_the_end(server, alone)
    p.goto(f"{server.url}/replay/{alone['code']}?match=0")
    p.wait_for_selector(".replay-scores .total")
    order = p.evaluate(
        """() => [...document.querySelectorAll(".replay-scores .total")].map((total) => {
          const range = document.createRange();
          range.selectNodeContents(total.firstChild);
          return [range.getBoundingClientRect().right,
            total.querySelector("strong").getBoundingClientRect().left];
        })"""
    )
    assert len(order) == 4 and all(name <= score for name, score in order), order
    p.context.close()
    assert ERRORS == []


# An Arabic name that ends in a digit: unisolated, the digit and what follows the name (a short
# id, ", to act", a score) joined the name's right-to-left run.
ARABIC = "محمد 2"
FSI, PDI = "\u2068", "\u2069"


def test_an_arabic_name_ending_in_a_digit_keeps_its_place_on_the_board_profile_and_review(
    page: Any, server: Server
) -> None:
    """Two players named "محمد 2" on Pocha's leaderboard: the first's short id #80c2cb read
    "80# محمد 2c2cb", half of it before her name. Each name is set apart, a <bdi> in the page
    and between U+2068 and U+2069 where only plain text goes (a seat's label, the replay's
    list of hands to show): rank, name, short id and rating read left to right, as "Profile:"
    and her name on her profile, her name and her numbers in the review of her match."""
    ids, tables = [], []
    for _ in range(2):
        me = server.post("/api/players", {"name": ARABIC})
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        made = server.create(
            "pocha", params={"schedule": "[1]"}, name=ARABIC, seats=seats, player=me["token"]
        )
        play_to_the_end(server, made)
        ids.append(me["id"])
        tables.append(made)
    p = page
    p.goto(server.url + "/leaderboard/pocha")
    p.wait_for_selector(".leaderboard tbody tr")
    for player in ids:
        row = f".leaderboard tr:has(a[href='/players/{player}'])"
        rank, name, hash_, short, rating = (
            p.evaluate(NAME_BOX, [f"{row} td:{cell}", word])
            for cell, word in (
                ("first-child", p.locator(f"{row} td").first.inner_text()),
                ("nth-child(2)", ARABIC),
                ("nth-child(2)", "#"),
                ("nth-child(2)", player[:6]),
                ("nth-child(3)", p.locator(f"{row} td.rating").inner_text()),
            )
        )
        assert rank[1] <= name[0] and name[1] <= hash_[0] <= short[0], (name, hash_, short)
        assert short[1] <= rating[0]
        assert p.locator(f"{row} a bdi").inner_text() == ARABIC
    shot(p, "leaderboard-right-to-left")

    p.goto(f"{server.url}/players/{ids[0]}")
    p.wait_for_selector(".profile-page .ratings")
    assert p.locator(".profile-page h1 .who bdi").inner_text() == ARABIC
    said, name = (p.evaluate(NAME_BOX, [".profile-page h1", w]) for w in ("Profile:", ARABIC))
    assert said[1] <= name[0], (said, name)

    # At her table: her seat as a screen reader names it, her score column's head.
    code = tables[0]["code"]
    p.evaluate(f"localStorage.setItem('tapete:token:{code}', '{tables[0]['token']}')")
    p.goto(f"{server.url}/t/{code}")
    p.wait_for_selector(".summary:not([hidden])")
    assert p.locator(".felt .seat[data-seat='0']").get_attribute("aria-label") == FSI + ARABIC + PDI
    head = p.locator(".scores thead th[scope=col]").first
    assert head.get_attribute("title") == FSI + ARABIC + PDI
    assert head.locator("bdi").inner_text() == ARABIC

    p.goto(f"{server.url}/replay/{code}?match=0&review=1")
    p.wait_for_selector(".review-chart svg", timeout=60_000)
    assert p.locator(".replay-seat[data-seat='0'] .name bdi").inner_text() == ARABIC
    assert p.locator(".viewer option[value='0']").inner_text() == FSI + ARABIC + PDI
    her = ".review-players tr[data-seat='0']"
    assert p.locator(f"{her} th bdi").inner_text() == ARABIC
    accuracy = p.locator(f"{her} td").first.inner_text()
    name, score = (p.evaluate(NAME_BOX, [her, w]) for w in (ARABIC, accuracy))
    assert name[1] <= score[0], (name, score)
    # Beside her first decision: her name, then what she played.
    for _ in range(4):  # her bid is among the first four moves of the hand
        p.click("[data-go='forward']")
        if p.locator(".review-note bdi").filter(has_text=ARABIC).count():
            break
    note = p.locator(".review-note").inner_text()
    assert note.startswith(f"{ARABIC}: bid "), note
    name, played = (p.evaluate(NAME_BOX, [".review-note", w]) for w in (ARABIC, "bid "))
    assert name[1] <= played[0], (name, played)


def test_a_name_typed_in_arabic_is_laid_out_right_to_left_as_it_is_typed(
    page: Any, server: Server
) -> None:
    """The lobby's name field and a visitor's join field take their direction from what is
    typed in them: an Arabic name runs from the right, a Latin one from the left."""
    made = server.create("pocha", seats=[{"kind": "human"}, {"kind": "human"}] * 2)
    p = page
    for where, field in (("/", "input[name=name]"), (f"/t/{made['code']}", ".join-name")):
        p.goto(server.url + where)
        for name, direction in ((ARABIC, "rtl"), ("Ana 2", "ltr")):
            p.fill(field, name)
            assert p.locator(field).evaluate(f"e => e.matches(':dir({direction})')"), (where, name)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "played by a stand-in"), ("pt", "jogada por um substituto")],
)
def test_the_replay_says_which_moves_a_stand_in_played(
    browser: Any, server: Server, lang: str, said: str
) -> None:
    """דנה takes a seat and never comes: a bot plays for her. The replay's moves say which
    were the stand-in's, in the reader's language, and no move of anyone else's."""
    made = server.create(
        "pocha",
        params={"schedule": "[2]"},
        seats=[{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
        grace=0.1,
        bot_delay=0.05,
    )
    server.post(f"/api/tables/{made['code']}/join", {"name": "דנה"})  # and never comes
    play_to_the_end(server, made)
    p = _open_table(browser, server, made, lang)
    p.goto(f"{server.url}/replay/{made['code']}?match=0")
    p.wait_for_selector(".replay-log")
    lines: list[str] = []
    for _ in range(40):  # trick by trick, deal by deal (a tie may add one): every move told
        p.click("[data-go='next-trick']")
        shown = p.locator(".replay-log li").all_inner_texts()
        lines += [line for line in shown if line not in lines]
    stood = [line for line in lines if line.endswith(f"({said})")]
    # Her bids and cards, each said to be the stand-in's; nobody else's move.
    assert len(stood) >= 2 and all(line.startswith("דנה") for line in stood), lines
    p.context.close()
    assert ERRORS == []


def test_the_lobby_in_spanish_and_portuguese_describes_games_and_options(
    page: Any, server: Server
) -> None:
    p = page
    p.goto(server.url + "/")
    for lang, summary, hook in (
        ("es", "acertando lo pedido", "gancho del que reparte"),
        ("pt", "pedidos exatos", "gancho de quem dá"),
    ):
        p.select_option("#lang", lang)
        p.wait_for_selector(f"select[name=game] option:has-text('{summary}')", state="attached")
        p.select_option('select[name="game"]', "pocha")
        p.click("#params summary")
        labels = p.locator("#params label.option")
        texts = [t.split("\n")[0] for t in labels.all_inner_texts()]
        assert hook in " ".join(texts)
        assert not any("_" in t.split(" [")[0] for t in texts if t), texts
        assert p.locator("#params label.option .help").count() == labels.count()
        assert p.locator('#params label.option[title="dealer_hook"] input').count() == 1
        # each help line starts with the option's name as the rules page and a spec write it
        help_line = p.locator('#params label.option[title="dealer_hook"] .help').inner_text()
        assert help_line.startswith("dealer_hook: " + ("el " if lang == "es" else "quem "))
        p.click("#params summary")
    # The rules page opens with how to play in the chosen language; its button shows the full
    # rules in that language, and goes back.
    p.goto(server.url + "/rules/truco")
    p.wait_for_selector(".rules-page h1")
    assert "Vencendo a partida" in p.locator(".rules-page h2").all_inner_texts()
    assert p.locator(".rules-page .game-summary").count() == 0
    assert p.locator("#rules-toggle").inner_text() == "Regras completas, como implementadas"
    p.click("#rules-toggle")
    p.wait_for_selector(".rules-page .note")
    assert "Glossário" in p.locator(".rules-page h2").all_inner_texts()
    assert p.locator(".rules-page .game-summary").count() == 0
    assert "inglês" not in p.locator(".rules-page .note").inner_text()
    assert p.locator("#rules-toggle").inner_text() == "Como jogar"
    # A full page its translation is missing for (a server answering in English, as its
    # Content-Language says) shows under the game's summary in the page's language and a note.
    english = howto.reference("truco")
    p.route(
        "**/api/rules/truco?*full=true*",
        lambda route: route.fulfill(
            body=english, content_type="text/markdown", headers={"Content-Language": "en"}
        ),
    )
    p.reload()
    p.wait_for_selector(".rules-page .game-summary")
    assert tr("pt", ENTRIES["truco"].summary) in p.locator(".rules-page .game-summary").inner_text()
    assert "Glossary" in p.locator(".rules-page h2").all_inner_texts()
    assert "inglês" in p.locator(".rules-page .note").inner_text()
    # A line of the page, not a box floating over it (it once took the match summary's style).
    assert (
        p.locator(".rules-page .game-summary").evaluate("e => getComputedStyle(e).position")
        == "static"
    )


def test_the_full_rules_view_is_in_the_address_so_it_can_be_bookmarked(
    page: Any, server: Server
) -> None:
    # The button swapped the page's text but not its address: a bookmark, a shared link or a
    # reload of the full rules opened the how-to page.
    p = page
    p.goto(server.url + "/rules/truco")
    p.wait_for_selector(".rules-page h1")
    p.click("#rules-toggle")
    p.wait_for_selector(".rules-page .note")
    assert p.url == server.url + "/rules/truco?full=1"
    p.reload()
    p.wait_for_selector(".rules-page .note")
    assert "Glossary" in p.locator(".rules-page h2").all_inner_texts()
    fresh = p.context.new_page()  # the address alone, as a shared link opens it
    try:
        fresh.goto(server.url + "/rules/truco?full=1")
        fresh.wait_for_selector(".rules-page .note")
        assert "Glossary" in fresh.locator(".rules-page h2").all_inner_texts()
    finally:
        fresh.close()
    # Back returns to how to play, and the button there to the full view again.
    p.click("#rules-toggle")
    p.wait_for_selector(".rules-page .note", state="detached")
    assert p.url == server.url + "/rules/truco"
    p.go_back()
    p.wait_for_selector(".rules-page .note")
    assert p.url == server.url + "/rules/truco?full=1"
    p.go_back()
    p.wait_for_selector(".rules-page .note", state="detached")
    assert "Glossary" not in p.locator(".rules-page h2").all_inner_texts()


def test_stepping_the_replay_by_keyboard_to_its_end_and_back_keeps_the_focus(
    page: Any, server: Server
) -> None:
    """At the last move "step forward" was disabled under the keyboard, and the focus fell to
    the page's body (Enter did nothing more, a screen reader lost its place); so at move 0."""
    p = page
    code = start_with_bots(p, server, "pocha(schedule=[1])", seed=3)
    play_until(p, ".summary:not([hidden])", random.Random(3))
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    for go in ("forward", "back"):
        p.focus(f"[data-go='{go}']")
        for _ in range(80):
            p.keyboard.press("Enter")
            if p.get_attribute(f"[data-go='{go}']", "aria-disabled") == "true":
                break
        assert p.evaluate(f"document.activeElement.matches('[data-go={go}]')"), p.evaluate(FOCUSED)
        where = p.locator(".where").inner_text()
        p.keyboard.press("Enter")  # pressed at the end, it stays there
        assert p.locator(".where").inner_text() == where
    assert where.startswith("hand 1 of") and where.endswith("move 0 of 8")
    # A screen reader hears the move stepped to, in the log's words, not only its number.
    p.keyboard.press("Tab")  # to "step forward"
    p.keyboard.press("Enter")
    said = p.locator(".replay-said").inner_text()
    last = p.locator(".replay-log li").last.inner_text()
    assert said.startswith(p.locator(".where").inner_text()) and said.endswith(last), said


def test_the_replay_names_seats_as_the_table_and_shows_bids_and_scores_at_move_0(
    page: Any, server: Server
) -> None:
    p = page
    code = create_in_lobby(p, server, "pocha", schedule="[1, 2]")
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(23))
    first_text = "els => els.map((el) => el.firstChild.textContent.trim())"
    at_table = p.locator(".felt .seat .name").evaluate_all(first_text)
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    assert p.locator(".replay-seat .name").evaluate_all(first_text) == at_table
    assert any(" · " in n for n in at_table)
    # Move 0: every seat's bid not yet made, and the scores (all 0 before the first deal).
    assert "move 0 of" in p.locator(".where").inner_text()
    assert p.locator(".replay-seat .bid").all_inner_texts() == ["bid –"] * 4
    assert p.locator(".replay-scores .total").count() == 4
    assert all(t.endswith(" 0") for t in p.locator(".replay-scores .total").all_inner_texts())
    p.click("[data-go='forward']")
    assert sum(t != "bid –" for t in p.locator(".replay-seat .bid").all_inner_texts()) == 1
    # The second deal starts from the first deal's totals.
    p.click("[data-go='next-deal']")
    totals = [t.rsplit(" ", 1)[1] for t in p.locator(".replay-scores .total").all_inner_texts()]
    assert any(t != "0" for t in totals), totals
    assert p.locator(".replay-seat .bid").all_inner_texts() == ["bid –"] * 4


def test_no_toast_shows_until_there_is_something_to_say(page: Any, server: Server) -> None:
    p = page
    p.goto(server.url + "/")
    p.wait_for_selector(".lobby h1")
    assert not p.locator("#toast").is_visible()
    create_in_lobby(p, server, "pocha", schedule="[1]")
    assert not p.locator("#toast").is_visible()
    p.click(".code-box .copy")
    p.wait_for_selector("#toast.shown")
    assert p.locator("#toast").is_visible() and "/t/" in p.locator("#toast").inner_text()
    p.wait_for_selector("#toast", state="hidden", timeout=8_000)


def test_the_bot_speed_takes_decimals_and_says_plainly_what_it_wants(
    page: Any, server: Server
) -> None:
    p = page
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "Ana")
    p.click("#table-options summary")
    p.fill('input[name="bot_delay"]', "9")
    p.click("#create button[type=submit]")
    error = p.locator("#bot-delay-error")
    assert error.is_visible()
    assert "0 to 5" in error.inner_text() and p.url.rstrip("/") == server.url
    p.fill('input[name="bot_delay"]', "0.15")
    assert not error.is_visible()
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    code = p.url.rsplit("/", 1)[-1]
    room = server.app.state.rooms.get(code)
    assert room is not None and room.truth.options.bot_delay == 0.15


def test_an_unknown_table_code_says_so_with_a_way_back_to_the_lobby(
    page: Any, server: Server
) -> None:
    p = page
    p.goto(server.url + "/")
    # a seat token kept from a table since gone: the page forgets it
    p.evaluate("localStorage.setItem('tapete:token:QQQQQ', 'a-seat-token')")
    p.fill("#join input[name=code]", "qqqqq")
    p.click("#join button[type=submit]")
    p.wait_for_selector(".missing-page")
    assert p.url == server.url + "/t/QQQQQ"
    assert p.evaluate("localStorage.getItem('tapete:token:QQQQQ')") is None
    assert p.locator(".missing-page h1").inner_text() == "No such table"
    assert "QQQQQ" in p.locator(".missing-page").inner_text()
    p.select_option("#lang", "es")  # the page says it again in the language chosen
    p.wait_for_selector(".missing-page h1:has-text('No existe esa mesa')")
    p.click(".missing-page a[href='/']")
    p.wait_for_selector(".lobby h1:has-text('Nueva mesa')")
    assert p.url == server.url + "/"


@pytest.mark.parametrize("path", ["/players/%E0%A4%A", "/players/no-such-id"])
def test_a_profile_address_that_names_nobody_says_so_with_a_way_back(
    page: Any, server: Server, path: str
) -> None:
    """An unknown player id, or an address that is not valid percent-encoding: no player, said
    plainly (the page fixture checks that no script failed)."""
    p = page
    p.goto(server.url + path)
    p.wait_for_selector(".profile-page a[href='/']")
    assert "No such player." in p.locator(".profile-page").inner_text()
    p.click(".profile-page a[href='/']")
    p.wait_for_selector(".lobby h1")


def test_a_name_of_only_spaces_is_refused_by_the_lobby_form(page: Any, server: Server) -> None:
    p = page
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "   ")
    p.click("#create button[type=submit]")
    p.wait_for_timeout(500)
    assert p.url == server.url + "/"  # no table was made
    name = p.locator('#create input[name="name"]')
    assert name.evaluate("el => el.validity.patternMismatch")
    assert name.evaluate("el => el.validationMessage")  # the browser says why, in its bubble
    p.fill('input[name="name"]', " Ana ")
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    assert "Ana" in p.locator(".waiting .seat-list li").first.inner_text()


def test_a_rule_option_the_game_refuses_is_pointed_at_in_the_pages_language(
    browser: Any, server: Server
) -> None:
    """Nine players for Pocha: the players field is marked and focused, and the toast names the
    option and says what it takes in Spanish (the server's refusal in the page's language), not
    in English; the fixed value goes."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    p = context.new_page()
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "Ana")
    p.select_option('select[name="game"]', "pocha")
    p.click("#params summary")
    p.fill('input[name="p:players"]', "9")
    p.click("#params summary")  # closed: the refusal opens it again
    p.click("#create button[type=submit]")
    p.wait_for_selector("#toast.shown")
    field = p.locator('input[name="p:players"]')
    assert field.get_attribute("aria-invalid") == "true"
    assert field.evaluate("el => el === document.activeElement")
    told = p.locator("#toast").inner_text()
    label = p.locator('#params label.option[title="players"]').inner_text().split("\n")[0]
    expected = "players=9 no se acepta: de 3 a 8 (min_players=2 permite 2)"
    assert told == f"{label.strip()}: {expected}", told
    assert "not accepted" not in told
    p.fill('input[name="p:players"]', "4")
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    context.close()


def test_two_players_named_ana_are_told_apart_on_the_leaderboard(
    browser: Any, server: Server
) -> None:
    ids = []
    for seed in (31, 32):
        context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
        p = context.new_page()
        create_in_lobby(p, server, "oh_hell", schedule="[1]", players=3)
        ids.append(p.evaluate("JSON.parse(localStorage.getItem('tapete:player')).id"))
        p.click(".waiting .start")
        play_until(p, ".summary:not([hidden])", random.Random(seed))
        p.wait_for_selector(".summary .fair .check-deal")
        context.close()
    assert ids[0] != ids[1]
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    p = context.new_page()
    p.goto(f"{server.url}/leaderboard/oh_hell")
    p.wait_for_selector(".leaderboard tbody tr")
    shown = [p.locator(f".leaderboard a[href='/players/{i}']").inner_text().strip() for i in ids]
    assert all(s.startswith("Ana") and "#" in s for s in shown), shown
    assert shown[0] != shown[1]
    context.close()


def test_the_coach_s_review_in_the_replay_beside_each_decision_with_a_chart(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[5]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        seed=31,
        bot_delay=0.02,
    )
    code = made["code"]
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    errors: list[str] = []
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{code}', '{made['token']}')")
    p.goto(f"{server.url}/t/{code}")
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(3), prefer_cards=True)
    # At the end of the match: a button to review it, in the replay viewer.
    link = p.locator(".summary .review-link")
    assert link.inner_text() == "review this match"
    assert link.get_attribute("href") == f"/replay/{code}?match=0&review=1"

    p.goto(f"{server.url}/replay/{code}?match=0")
    p.click(".review-btn")
    p.wait_for_selector(".review-chart svg", timeout=60_000)
    # Each seat's summary and the chart, once the workers are through.
    assert p.locator(".review-players tbody tr").count() == 4
    assert p.locator(".review-chart polyline.expected").count() == 4
    assert p.locator(".review-controls").is_hidden()
    # Pocha plays hands: the review counts by the hand, as the table does.
    assert "lost a hand (points)" in p.locator(".review-players thead").inner_text()
    assert "the hands before" in p.locator(".review-chart .note").inner_text()
    review = server.get(f"/api/tables/{code}/reviews/0")["review"]
    assert review["iterations"] == 20

    # Beside the first decision (a bid): who played what, and how it compares with the best.
    p.click("[data-go='forward']")
    first = review["decisions"][0]
    note = p.locator(".replay-side .review-note").inner_text()
    assert note.startswith(f"Ana: {first['played_label']}") or first["seat"] != 0
    assert first["played_label"].startswith("bid ")
    assert ("as good as the best" in note) == (first["loss"] == 0)

    # A card that cost points: the better card is outlined in the hand it stayed in.
    costly = next(d for d in review["decisions"] if d["loss"] > 0 and d["best"].startswith("play "))
    actions = len(server.get(f"/api/tables/{code}/records/0")["deals"][costly["deal"]]["actions"])
    while f"move {costly['move']} of {actions}" not in p.locator(".where").inner_text():
        p.click("[data-go='forward']")
    better = costly["best"].split()[1]
    outlined = p.locator(f".replay-seat[data-seat='{costly['seat']}'] svg.better")
    assert outlined.count() == 1 and outlined.get_attribute("data-card") == better
    assert (
        f"better {costly['best_label']}: −{costly['loss']:.1f} points"
        in p.locator(".review-note").inner_text()
    )
    # Its cards named as the table names them (play caballo of copas), not by the record's 11c.
    note = p.locator(".review-note").inner_text()
    assert re.search(r"play \w+ of (oros|copas|espadas|bastos)\b", note), note
    assert not SPANISH_CODE.search(note), note
    # Every legal card with the points it was expected to bring, the one played marked.
    p.click(".review-note .options summary")
    assert p.locator(".review-note .options li").count() == len(costly["values"])
    assert p.locator(".review-note .options li.was-played").count() == 1
    shot(p, "review")
    p.locator(".review-chart").scroll_into_view_if_needed()
    shot(p, "review-chart")

    # The button at the end of the match opens the replay with the review, kept: shown at once.
    p.goto(f"{server.url}/t/{code}")
    p.wait_for_selector(".summary:not([hidden]) .review-link")
    with context.expect_page() as opened:
        p.click(".summary .review-link")
    replay = opened.value
    replay.on("pageerror", lambda e: errors.append(str(e)))
    replay.wait_for_selector(".review-chart svg")
    assert replay.locator(".review-players tbody tr").count() == 4
    replay.close()

    # In Spanish, the same review in Spanish words.
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".review-chart svg")
    p.select_option("#lang", "es")
    # The replay drawn again in Spanish (the English one's chart would satisfy a wait for it).
    p.wait_for_selector(".where:has-text('en el registro')")
    p.wait_for_selector(".review-chart svg")
    p.click("[data-go='forward']")
    assert ": pedir " in p.locator(".review-note").inner_text()
    shot(p, "review-es")
    assert (
        p.locator(".review-chart figcaption")
        .inner_text()
        .startswith("puntuación esperada a lo largo de la partida")
    )
    assert "pérdida por mano (puntos)" in p.locator(".review-players thead").inner_text()
    # Its numbers with a decimal comma: accuracy 87,5%, 1,25 points lost a hand.
    accuracy, loss = p.locator(".review-players tbody tr").first.locator("td").all_inner_texts()[:2]
    assert re.fullmatch(r"\d+,\d%", accuracy) and re.fullmatch(r"\d+,\d\d", loss)
    context.close()
    assert errors == [], errors


def test_the_review_link_asks_for_the_review_and_shows_its_progress(
    page: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[3]"},
        seats=[{"kind": "bot", "level": "random"}] * 4,
        seed=8,
        public=False,
    )
    watcher = server.client()
    watcher.hello(made["code"], made["token"])
    watcher.send({"type": "start"})
    watcher.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=60)
    watcher.close()
    p = page
    # Every text the progress line shows, as it changes.
    p.add_init_script(
        """window.progressSeen = [];
        new MutationObserver(() => {
          const line = document.querySelector('.review-progress');
          if (line && line.textContent && window.progressSeen.at(-1) !== line.textContent)
            window.progressSeen.push(line.textContent);
        }).observe(document, {subtree: true, childList: true, characterData: true});"""
    )
    p.goto(f"{server.url}/replay/{made['code']}?match=0&review=1")  # as the match's end opens it
    p.wait_for_selector(".review-chart svg", timeout=60_000)
    seen = p.evaluate("window.progressSeen")
    assert seen and all(line.startswith("reviewing decision ") for line in seen), seen
    assert p.locator(".review-players tbody tr").count() == 4
    assert server.get(f"/api/tables/{made['code']}/reviews/0")["status"] == "done"


# --- the keyboard and screen readers ----------------------------------------------------------

# What the focused control is, in words a failure can show: "button.card-btn legal 5 of oros".
FOCUSED = """() => {
  const e = document.activeElement;
  if (e === document.body) return "body";
  const name = e.getAttribute("aria-label") || e.textContent;
  return `${e.tagName.toLowerCase()}.${e.className} ${name}`.trim();
}"""
ON_A_MOVE = "document.activeElement.matches('.buttons .act, .hand.my-turn .card-btn.legal')"

# What a screen reader is given to say: the text added to live regions (not the toast, which
# the tests here never raise), kept from the page's first script on, through reloads.
LISTEN = """
window.heard = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
    const live = node?.closest('[aria-live]:not([aria-live="off"]), [role="log"], [role="status"]');
    if (!live) continue;
    for (const added of change.addedNodes) {
      const text = added.textContent.trim();
      if (text) window.heard.push(text);
    }
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_a_keyboard_player_plays_from_the_start_to_the_rematch_with_the_focus_on_each_move(
    page: Any, server: Server
) -> None:
    p = page
    open_with_bots(p, server, "pocha(schedule=[2])", seed=11)
    p.focus(".waiting .start")
    p.keyboard.press("Enter")
    moves = 0
    while True:
        p.wait_for_selector(f"{ACTIONABLE}, .summary:not([hidden])", timeout=20_000)
        if p.locator(".summary:not([hidden])").count():
            break
        # Each redraw takes the focus to what the rules ask now: Enter alone plays the match.
        assert p.evaluate(ON_A_MOVE), p.evaluate(FOCUSED)
        p.keyboard.press("Enter")
        moves += 1
    assert moves >= 3  # a bid and two cards
    dialog = p.get_by_role("dialog", name="Match over")
    assert dialog.is_visible()
    assert p.evaluate("document.activeElement.matches('.summary .rematch')"), p.evaluate(FOCUSED)
    p.keyboard.press("Enter")
    p.wait_for_selector(".summary", state="hidden")
    p.wait_for_selector(ACTIONABLE)
    assert p.evaluate(ON_A_MOVE), p.evaluate(FOCUSED)


def test_a_reload_on_your_turn_puts_the_keyboard_on_the_move_the_rules_ask(
    page: Any, server: Server
) -> None:
    """A reload (or a link opened mid-match) once left the focus on the page's body: Enter did
    nothing, and Tab walked the header and the whole felt before it reached the hand."""
    p = page
    start_with_bots(p, server, "pocha(schedule=[3])", seed=11)
    rng = random.Random(5)
    for wanted in (".buttons .act", ".hand.my-turn .card-btn.legal"):
        play_until(p, wanted, rng, limit=20)
        p.reload()
        p.wait_for_selector(wanted)
        wait_until(p, "document.activeElement !== document.body")
        assert p.evaluate(ON_A_MOVE), p.evaluate(FOCUSED)
        before = p.locator(".log li").count()
        p.keyboard.press("Enter")
        wait_until(p, f"document.querySelectorAll('.log li').length > {before}")


def test_arrows_move_among_the_buttons_and_a_closed_summary_stays_closed_until_asked_for(
    page: Any, server: Server
) -> None:
    p = page
    code = start_with_bots(p, server, "pocha(schedule=[2])", seed=12)
    p.wait_for_selector(".buttons .act")
    p.keyboard.press("b")
    first = p.evaluate(FOCUSED)
    p.keyboard.press("ArrowRight")
    assert p.evaluate(FOCUSED) != first and p.evaluate(
        "document.activeElement.closest('.buttons') !== null"
    ), p.evaluate(FOCUSED)
    p.keyboard.press("ArrowLeft")
    assert p.evaluate(FOCUSED) == first
    play_until(p, ".summary:not([hidden])", random.Random(12))
    p.keyboard.press("Escape")
    p.wait_for_selector(".summary", state="hidden")
    assert p.evaluate("document.activeElement.matches('.bar .title')"), p.evaluate(FOCUSED)
    # Someone comes to watch and goes: the room is drawn again, the summary stays closed and
    # the keyboard where it was; the button left among the actions opens it again.
    watcher = p.context.new_page()
    watcher.goto(f"{server.url}/t/{code}")
    watcher.wait_for_selector(".summary:not([hidden])")
    watcher.close()
    p.wait_for_timeout(500)
    assert p.locator(".summary").is_hidden()
    assert p.evaluate("document.activeElement.matches('.bar .title')"), p.evaluate(FOCUSED)
    p.click(".buttons .reopen-summary")
    p.wait_for_selector(".summary:not([hidden])")
    assert p.evaluate("document.activeElement.closest('.summary') !== null"), p.evaluate(FOCUSED)


def test_another_seat_s_move_leaves_your_hand_and_the_card_you_are_on_as_they_were(
    page: Any, server: Server
) -> None:
    """A hand drawn anew at every move would put the focus on a new button each time, and a
    screen reader would read the card again after every bot's move."""
    p = page
    start_with_bots(p, server, "pocha(schedule=[3])", seed=21, bot_delay=0.6)
    play_until(p, ".hand.my-turn .card-btn.legal", random.Random(21))  # the bids
    p.locator(".hand .card-btn.legal").first.focus()
    p.keyboard.press("Enter")  # a card: then three bots play, 0.6 s apart
    wait_until(p, "document.querySelectorAll('.hand .card-btn').length === 2")
    p.evaluate("window.kept = document.activeElement")
    assert p.evaluate("window.kept.matches('.hand .card-btn')"), p.evaluate(FOCUSED)
    lines = p.locator(".log li").count()
    wait_until(p, f"document.querySelectorAll('.log li').length > {lines}")  # a bot's move
    assert p.evaluate("window.kept === document.activeElement && window.kept.isConnected")


def test_a_card_led_at_once_lies_over_the_last_trick_s_cards_on_their_way_out(
    page: Any, server: Server
) -> None:
    """The last trick's cards stay a moment where they were played, then fly to their winner.
    The winner, leading again before they had gone (a bot does at its speed of 0.7 s), once
    laid its card under its own last one: the card just led was hidden for a second."""
    p = page
    start_with_bots(p, server, "pocha(schedule=[5])", seed=8)
    play_until(p, ".trick .played", random.Random(8))
    # The worst a leaving trick brings: its eighth card, where the new lead lies.
    hidden = p.evaluate("""() => {
      const card = document.querySelector('.trick .played');
      const leaving = document.querySelector('.flying');
      const where = `left:${card.style.left};top:${card.style.top}`;
      leaving.innerHTML = `<div class="played" style="${where};z-index:8">${card.innerHTML}</div>`;
      const box = card.getBoundingClientRect();
      const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return !card.contains(top);
    }""")
    assert not hidden


def test_someone_watching_is_not_told_the_keys_that_play_a_hand(
    browser: Any, server: Server
) -> None:
    made = server.create("truco", seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    host = _open_table(browser, server, made)
    host.click(".waiting .start")
    host.wait_for_selector(ACTIONABLE)
    assert host.locator(".keys").is_visible()
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    watcher = context.new_page()
    watcher.goto(f"{server.url}/t/{made['code']}")
    watcher.wait_for_selector(".tools .chip:has-text('mirando')")
    assert not watcher.locator(".keys").is_visible()
    context.close()
    host.context.close()
    assert ERRORS == []


def test_the_hint_is_offered_for_the_match_s_moves_not_in_the_waiting_room_or_after(
    page: Any, server: Server
) -> None:
    p = page
    open_with_bots(p, server, "truco", seed=3)
    assert p.locator(".tools .hint-btn").count() == 0
    p.click(".waiting .start")
    p.wait_for_selector(".tools .hint-btn")
    assert "H hint" in p.locator(".keys").inner_text()
    play_until(p, ".summary:not([hidden])", random.Random(3))
    assert p.locator(".tools .hint-btn").count() == 0


def test_the_waiting_room_keeps_the_focus_on_a_seat_changed_by_keyboard(
    page: Any, server: Server
) -> None:
    p = page
    open_with_bots(p, server, "pocha", seed=13)
    wanted = '.waiting select[data-seat="2"]'
    seat = p.locator(wanted)
    before = seat.input_value()
    seat.focus()
    p.keyboard.press("ArrowDown")  # a closed select changes at once, and the server redraws
    wait_until(p, f"document.querySelector('{wanted}').value !== '{before}'")
    p.wait_for_timeout(300)
    assert p.evaluate(f"document.activeElement.matches('{wanted}')"), p.evaluate(FOCUSED)


def test_a_screen_reader_hears_each_move_in_words_and_its_turn_but_not_the_log_again(
    page: Any, server: Server
) -> None:
    p = page
    p.add_init_script(LISTEN)
    start_with_bots(p, server, "pocha(schedule=[2])", seed=14)
    rng = random.Random(14)
    # Until a trick is won and the next one waits for you.
    while True:
        p.wait_for_selector(ACTIONABLE, timeout=20_000)
        if p.locator(".log li", has_text="takes the trick").count():
            break
        click_one(p, rng, prefer_cards=True)
    heard: list[str] = p.evaluate("window.heard")
    assert any("takes the trick" in h for h in heard), heard
    assert any(h.startswith("your turn") for h in heard), heard
    # Cards in words, as the page's language names them, not as codes ("3e").
    plays = [h for h in heard if " plays " in h]
    assert plays and all(" of " in h for h in plays), plays
    # Whose turn it is, said at every bot's move, would drown the moves themselves.
    assert not [h for h in heard if h.endswith("to play")], heard
    p.reload()
    p.wait_for_selector(ACTIONABLE)
    p.wait_for_timeout(500)
    again: list[str] = p.evaluate("window.heard")
    assert not [h for h in again if "plays" in h or "takes the trick" in h], again


def test_every_card_and_seat_has_a_name_a_screen_reader_can_say(page: Any, server: Server) -> None:
    p = page
    start_with_bots(p, server, "pocha(schedule=[1])", seed=15)
    p.wait_for_selector(ACTIONABLE)
    felt = p.get_by_role("group", name="table")
    bot = felt.get_by_role("group", name="bot 2 · random")
    assert bot.count() == 1
    assert bot.get_by_role("group", name="1 card", exact=True).count() == 1
    trump = p.locator(".info .info-card").first
    # The trump card is said once, by its name in words, not again by its picture.
    assert trump.get_by_role("img").count() == 0
    assert " of " in p.locator(".info .sr").first.inner_text()


def test_the_lobby_reads_the_open_tables_once_not_at_every_refresh(
    page: Any, server: Server
) -> None:
    p = page
    server.create("pocha", seats=[{"kind": "human"}] * 4)  # three seats for friends
    p.add_init_script(LISTEN)
    p.goto(server.url + "/")
    p.wait_for_selector("#tables li a")
    p.wait_for_timeout(300)
    first = len(p.evaluate("window.heard"))
    p.wait_for_timeout(5_500)  # the list is fetched again every five seconds
    assert len(p.evaluate("window.heard")) == first


FELT_BOXES = measuring(
    """
  return {
    seats: [...document.querySelectorAll(".felt .seat")].map(box),
    trick: [...document.querySelectorAll(".felt .trick .played")].map(box),
    facts: box(document.querySelector(".facts")),
    felt: box(document.querySelector(".felt")),
  };
"""
)


CARD_BOXES = """() => [...document.querySelectorAll(".hand .card-btn")].map((e) => {
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
})"""


AT_HAND = measuring(
    """
  // What a tap at the middle of a card's visible strip reaches: the card itself, or what covers it.
  const cards = [...document.querySelectorAll(".hand .card-btn")];
  const strips = cards.map((e, i) => {
    const r = e.getBoundingClientRect();
    const next = cards[i + 1]?.getBoundingClientRect();
    const beside = next && next.top < r.bottom && next.bottom > r.top;
    const right = beside ? Math.min(r.right, next.left) : r.right;
    const x = (r.left + right) / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {width: right - r.left, height: r.height, tapped: !!hit && e.contains(hit)};
  });
  return {
    hand: cards.map(box),
    strips,
    trick: [...document.querySelectorAll(".felt .trick .played")].map(box),
    turn: [...document.querySelectorAll(".felt .seat.turn")].map(box),
    view: {width: innerWidth, height: innerHeight},
    scroll: [scrollX, scrollY],
    page: document.documentElement.scrollHeight,
  };
"""
)


def _apart(boxes: dict[str, Any]) -> None:
    """No seat lies over another seat, a card of the trick, the facts above the felt, or off the
    felt's top and bottom."""
    seats, felt = boxes["seats"], boxes["felt"]
    for i, a in enumerate(seats):
        assert felt["y"] - 1 <= a["y"] and a["y"] + a["height"] <= felt["y"] + felt["height"] + 1
        assert not _overlap(a, boxes["facts"]), (a, boxes["facts"])
        for b in seats[i + 1 :] + boxes["trick"]:
            assert not _overlap(a, b), (a, b)


# Resolves once no animation runs: one that is cancelled midway (a card's rise replaced by its
# fall when the focus or the pointer moves on) rejects its `finished`, and whatever replaced it
# is waited for in turn.
SETTLED = """async () => {
  for (let i = 0; i < 20; i++) {
    const running = document.getAnimations();
    if (!running.length) return;
    await Promise.all(running.map((a) => a.finished.catch(() => null)));
  }
}"""

RISE_AND_GAP = """() => {
  const card = document.activeElement;
  return [-new DOMMatrix(getComputedStyle(card).transform).m42,
          parseFloat(getComputedStyle(card.parentElement).rowGap)];
}"""


@pytest.mark.parametrize(
    "size",
    [(1366, 650), (1280, 600), (390, 844), (844, 390)],
    ids=["laptop-1366x650", "laptop-1280x600", "phone", "phone-landscape"],
)
def test_large_cards_on_a_short_screen_keep_seats_and_the_trick_apart(
    browser: Any, server: Server, size: tuple[int, int]
) -> None:
    """Large cards on a short screen once laid the top seat over the trick's cards and the facts
    above the felt, and the trick's side cards over the side seats of a phone."""
    phone = size[0] < 600 or size[1] < 600
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone
    )
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate("localStorage.setItem('tapete:large-cards', '1')")
    start_with_bots(p, server, "pocha(schedule=[8])", seed=8)
    rng = random.Random(3)
    while not p.locator(".felt .trick .played").count():
        p.wait_for_selector(f"{ACTIONABLE}, .felt .trick .played", timeout=20_000)
        click_one(p, rng)
    p.wait_for_timeout(300)
    _apart(p.evaluate(FELT_BOXES))
    shot(p, f"large-{size[0]}x{size[1]}")
    # A hand of eight large cards fans out, or wraps: a raised card (legal, focused) stays off
    # the row above, and every card shows a strip a finger hits (44 px) and a tap reaches.
    p.wait_for_selector(".hand.my-turn .card-btn.legal:not(.sent)")
    # Focused as by the keyboard, a card rises highest (:focus-visible): a key pressed first
    # makes the browser show the focus so. Each legal card in turn, in whichever row it lies,
    # once its rise has ended.
    p.keyboard.press("Shift")
    legal = p.locator(".hand.my-turn .card-btn.legal")
    for k in range(legal.count()):
        legal.nth(k).focus()
        p.evaluate(SETTLED)
        assert p.evaluate("document.activeElement.matches(':focus-visible')")
        # However the cards fall into rows this deal, a card's rise is within the gap between
        # rows: in the second row it would otherwise lie over the cards of the first.
        rise, gap = p.evaluate(RISE_AND_GAP)
        assert rise <= gap, (rise, gap)
        cards = p.evaluate(CARD_BOXES)
        for i, a in enumerate(cards):
            for b in cards[i + 1 :]:
                assert abs(a["y"] - b["y"]) < a["height"] / 2 or not _overlap(a, b), (k, a, b)
    strips = p.evaluate(AT_HAND)["strips"]
    assert all(s["width"] >= 44 and s["height"] >= 44 and s["tapped"] for s in strips), strips
    context.close()


def test_eight_seats_on_a_phone_never_touch(browser: Any, server: Server) -> None:
    """Eight seats on a phone held upright once overlapped their neighbours by a few pixels."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    p = context.new_page()
    start_with_bots(p, server, "pocha(players=8, max_players=8, schedule=[3])", seed=8)
    p.wait_for_selector(".felt .seat .backs svg")
    p.wait_for_timeout(300)
    boxes = p.evaluate(FELT_BOXES)
    assert len(boxes["seats"]) == 8
    _apart(boxes)
    fits(p)
    context.close()


WORD_LINES = """() => [...document.querySelectorAll(".scores thead th[scope=col]")].map((th) => {
  const text = th.querySelector("bdi").firstChild, lines = [];
  for (const m of text.data.matchAll(/\\S+/g)) {
    const r = document.createRange();
    r.setStart(text, m.index);
    r.setEnd(text, m.index + m[0].length);
    lines.push(new Set([...r.getClientRects()].map((q) => Math.round(q.left + q.top))).size);
  }
  return Math.max(...lines);
})"""


@pytest.mark.parametrize("width", [1366, 390])
def test_score_heads_at_eight_seats_keep_each_word_whole(
    browser: Any, server: Server, width: int
) -> None:
    """Eight narrow score columns once broke "bot 2" into "bo", "t 2" and "Mariana" in four."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en-US")
    p = context.new_page()
    made = server.create(
        "pocha",
        name="Mariana",
        params={"players": "8", "max_players": "8", "schedule": "[1]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 7,
        bot_delay=0.05,
    )
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.goto(f"{server.url}/t/{made['code']}")
    p.click(".waiting .start")
    p.wait_for_selector(".scores thead th[scope=col]")
    assert p.evaluate(WORD_LINES) == [1] * 8
    heads = p.locator(".scores thead th[scope=col]")
    assert heads.first.inner_text() == "Mariana"  # whole, for a screen reader too
    context.close()


def test_large_cards_chosen_mid_match_fit_the_felt_at_once(browser: Any, server: Server) -> None:
    """Ticking "large cards" on your turn (nothing else moving) redraws the felt for them."""
    context = browser.new_context(viewport={"width": 1366, "height": 650}, locale="en-US")
    p = context.new_page()
    start_with_bots(p, server, "pocha(schedule=[8])", seed=8)
    p.wait_for_selector(ACTIONABLE)
    p.focus("#large-cards")
    p.keyboard.press("Space")
    p.wait_for_timeout(300)
    _apart(p.evaluate(FELT_BOXES))
    context.close()


def test_a_table_made_by_keyboard_opens_with_the_focus_in_its_waiting_room(
    page: Any, server: Server
) -> None:
    """Enter on "Create table" once left the keyboard on the new page's body: Tab began again
    at the page's top, through the header, to reach the start."""
    p = page
    p.goto(server.url + "/")
    p.focus('input[name="name"]')
    p.keyboard.type("Ana")
    p.focus("#create button[type=submit]")
    p.keyboard.press("Enter")
    p.wait_for_selector(".waiting:not([hidden]) .start")
    p.wait_for_timeout(300)
    assert p.evaluate("document.activeElement.matches('.waiting h2')"), p.evaluate(FOCUSED)
    p.keyboard.press("Tab")
    assert p.evaluate("document.querySelector('.waiting').contains(document.activeElement)")


# Each visible text's contrast against what lies behind it (its ancestors' backgrounds laid one
# over the other, each colour of a gradient in turn), below WCAG AA's 4.5 (3 for large text).
# Disabled controls are exempt, as WCAG has it.
LOW_CONTRAST = r"""() => {
  const rgba = (c) => {
    const v = c.match(/rgba?\(([^)]+)\)/)[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const f = (x) => (x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const behind = (e) => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      // A table's caption lies outside its box, and its background, unless laid out otherwise.
      if (n.tagName === "TABLE" && e.closest("caption") && s.display === "table") continue;
      const flat = (base) => layers.reduceRight((acc, l) => over(l, acc), base);
      if (s.backgroundImage.includes("gradient")) {
        return s.backgroundImage.match(/rgba?\([^)]+\)/g).map((c) => flat(rgba(c)));
      }
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) return [flat(c)];
    }
    return [layers.reduceRight((acc, l) => over(l, acc), [255, 255, 255, 1])];
  };
  const low = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const e = t.parentElement;
    if (!t.data.trim() || !e.getBoundingClientRect().width) continue;
    const exempt = "[hidden], .sr, svg, [aria-hidden=true], [aria-disabled=true], :disabled";
    if (e.closest(exempt)) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden") continue;
    let opacity = 1;
    for (let n = e; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const ink = rgba(s.color);
    ink[3] *= opacity;
    const size = parseFloat(s.fontSize);
    const need = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66) ? 3 : 4.5;
    for (const back of behind(e)) {
      const [a, b] = [lum(over(ink, back)), lum(back)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const what = `${e.tagName}.${e.className} "${t.data.trim()}"`;
      if (ratio < need) low.push(`${what}: ${ratio.toFixed(2)}`);
    }
  }
  return low;
}"""


@pytest.mark.parametrize("contrast", [False, True], ids=["default", "high-contrast"])
@pytest.mark.parametrize(
    ("spec", "size"),
    [("poch(players=3)", (360, 740)), ("poch(players=3)", (1366, 900)), ("truco", (1366, 900))],
)
def test_every_text_stands_out_from_its_background_in_both_themes(
    browser: Any, server: Server, spec: str, size: tuple[int, int], contrast: bool
) -> None:
    """On a phone Poch's "bowls" caption, drawn inside the bowls' dark box, was dark ink on dark
    green (invisible with high contrast)."""
    phone = size[0] < 600
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=phone, locale="en-US"
    )
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:contrast', '{int(contrast)}')")
    p.reload()
    p.wait_for_selector("#create")
    assert p.evaluate(LOW_CONTRAST) == []
    start_with_bots(p, server, spec, seed=8)
    p.wait_for_selector(ACTIONABLE)
    p.wait_for_timeout(300)
    assert p.evaluate(LOW_CONTRAST) == []
    context.close()


def test_one_of_a_kind_is_said_in_the_singular_in_the_lobby_and_the_replay(
    page: Any, server: Server
) -> None:
    """The lobby once offered "1 free seats" and the replay seen from one seat "1 cards"."""
    p = page
    friends = server.create("pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    p.goto(server.url + "/")
    mine = p.locator(f"#tables li a[href='/t/{friends['code']}'] em")
    assert mine.inner_text() == "1 free seat"
    p.select_option("#lang", "es")
    p.wait_for_selector(f"#tables li a[href='/t/{friends['code']}'] em:has-text('1 asiento libre')")
    p.select_option("#lang", "en")
    p.wait_for_selector(f"#tables li a[href='/t/{friends['code']}'] em:has-text('1 free seat')")
    code = create_in_lobby(p, server, "pocha", schedule="[1]")
    p.click(".waiting .start")
    play_until(p, ".summary:not([hidden])", random.Random(5))
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.select_option(".viewer", "0")
    assert p.locator(".replay-seat .backs").all_inner_texts() == ["1 card"] * 3


def test_the_lobby_form_says_what_a_field_takes_in_the_page_s_language(
    page: Any, server: Server
) -> None:
    """An English browser showing the page in Spanish once refused a turn timer of 9999 or an
    empty name in the browser's English: "Value must be less than or equal to 600"."""
    p = page
    p.goto(server.url + "/")
    p.evaluate("localStorage.setItem('tapete:lang', 'es')")
    p.reload()
    p.wait_for_selector("#create")
    p.fill('input[name="name"]', "")
    p.click("#create button[type=submit]")
    name = p.locator('#create input[name="name"]')
    assert name.evaluate("el => el.validationMessage") == "Un nombre, no solo espacios"
    p.fill('input[name="name"]', "Ana")
    p.click("#table-options summary")
    assert p.locator('input[name="bot_delay"]').input_value() == "0,7"  # as Spanish writes it
    p.fill('input[name="turn_timer"]', "9999")
    p.click("#create button[type=submit]")
    p.wait_for_timeout(300)
    assert p.url == server.url + "/"  # no table was made
    timer = p.locator('input[name="turn_timer"]')
    assert timer.evaluate("el => el.validationMessage").startswith("El tiempo por turno es")
    p.fill('input[name="turn_timer"]', "30")
    assert timer.evaluate("el => el.validationMessage") == ""
    p.fill('input[name="grace"]', "-1")
    assert "sustituya" in p.locator('input[name="grace"]').evaluate("el => el.validationMessage")


@pytest.mark.parametrize(
    ("lang", "medium", "hard"),
    [
        ("en", "counts the cards still out", "searches sampled deals for about half a second"),
        ("es", "cuenta las cartas que faltan", "busca en repartos simulados"),
        ("pt", "conta as cartas que faltam", "busca em distribuições simuladas"),
    ],
)
def test_each_bot_level_says_what_it_does_where_it_is_chosen(
    page: Any, server: Server, lang: str, medium: str, hard: str
) -> None:
    p = page
    p.goto(server.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:lang', '{lang}')")
    p.reload()
    p.select_option('select[name="game"]', "pocha")
    seat = p.locator('select[name="seat1"]')
    # Under the select, the chosen level's sentence, which a screen reader reads with it.
    assert seat.get_attribute("aria-describedby") == "seat1-help"
    assert medium in p.locator("#seat1-help").inner_text()
    p.select_option('select[name="seat1"]', "bot:hard")
    p.wait_for_selector(f"#seat1-help:has-text('{hard}')")
    # Every level's option has its sentence as a tooltip; a friend's seat has none.
    titles = seat.locator("option").evaluate_all("os => os.map((o) => o.title)")
    assert titles[0] == "" and all(titles[1:]) and len(set(titles[1:])) == len(titles) - 1
    # At the table, the host's seat controls say it too.
    if lang == "en":
        p.fill('input[name="name"]', "Ana")
        p.click("#create button[type=submit]")
        control = p.locator(".waiting select.seat-kind[data-seat='1']")
        control.wait_for()
        assert hard in (control.get_attribute("title") or "")


# The focus ring's best contrast (WCAG ratio) against the surface around the focused control:
# its outline's colour or its box-shadow's, whichever stands out more.
FOCUS_RING = r"""() => {
  const rgb = (c) =>
    (c.match(/rgba?\(([^)]+)\)/) || [, "0, 0, 0, 0"])[1].split(/[ ,\/]+/).map(Number);
  const lum = (c) => {
    const f = (x) => (x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const e = document.activeElement;
  let n = e.parentElement;
  while (n && rgb(getComputedStyle(n).backgroundColor)[3] === 0) n = n.parentElement;
  const around = rgb(getComputedStyle(n || document.body).backgroundColor);
  const s = getComputedStyle(e);
  const rings = [s.outlineColor, s.boxShadow].filter((c) => c && c !== "none").map(rgb);
  return Math.max(...rings.map((c) => ratio(c, around)));
}"""


def test_the_focus_ring_stands_out_on_the_paper_and_around_the_hand(
    page: Any, server: Server
) -> None:
    """The amber ring alone was 1.5:1 on the lobby's cream paper and the page around the hand:
    a keyboard player could lose the focus. WCAG asks 3:1 of it."""
    p = page
    p.goto(server.url + "/")
    p.focus('input[name="name"]')
    p.keyboard.press("Shift+Tab")
    p.keyboard.press("Tab")  # by keyboard, so the ring shows
    assert p.evaluate("document.activeElement.name") == "name"
    assert p.evaluate(FOCUS_RING) >= 3
    start_with_bots(p, server, "pocha(schedule=[2])", seed=11)
    p.wait_for_selector(ACTIONABLE)
    p.keyboard.press("Tab")
    p.keyboard.press("Shift+Tab")
    assert p.evaluate(ON_A_MOVE), p.evaluate(FOCUSED)
    assert p.evaluate(FOCUS_RING) >= 3


# --- friends at one table ----------------------------------------------------------------------


def test_a_person_whose_time_runs_out_reads_that_a_move_was_played_for_them(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[2]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        turn_timer=1,
    )
    p = _open_table(browser, server, made, lang="es")
    p.click(".waiting .start")
    p.wait_for_selector(".timer:has-text('⏱')")
    # Nobody clicks: the clock plays for the seat, and the log says so before the move.
    p.wait_for_selector(
        ".log li:has-text('Ana se quedó sin tiempo: se jugó por él')", timeout=10_000
    )
    said = p.locator(".log li").all_inner_texts()
    out = next(i for i, line in enumerate(said) if "sin tiempo" in line)
    assert said[out + 1].startswith("Ana ")
    p.context.close()
    assert ERRORS == []


def test_a_friend_the_host_removes_is_told_so_in_their_language(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2
    )
    host = _open_table(browser, server, made)
    bea = _friend(browser, server, made["code"], "Bea", 1, "pt-BR")
    host.wait_for_selector(".waiting li:has-text('Bea') [data-remove='1']")
    host.click("[data-remove='1']")
    bea.wait_for_selector("#toast.shown:has-text('O anfitrião tirou você do seu lugar')")
    assert bea.locator("[data-sit='1']").count() == 1  # free to sit again
    bea.context.close()
    host.context.close()
    assert ERRORS == []


def test_the_host_removes_a_friend_who_holds_up_the_match_and_a_bot_plays_on(
    browser: Any, server: Server
) -> None:
    """A friend who stays connected and never plays, with no turn timer, once held the table
    for ever: the host could remove a person only in the waiting room."""
    made = server.create(
        "pocha",
        params={"schedule": "[3]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    host = _open_table(browser, server, made)
    bea = _friend(browser, server, made["code"], "Bea", 1, "es-ES")
    host.click(".waiting .start")
    host.wait_for_selector(".log li")
    # No hints where friends play: H is not offered.
    keys = "Keys: 1–9 choose a card, ←/→ move, Enter plays, B buttons"
    assert host.locator(".keys").inner_text() == keys
    assert bea.locator(".remove-people").count() == 0  # only the host has it
    host.click(".remove-people summary")
    host.click(".remove-people [data-remove='1']")
    bea.wait_for_selector(
        "#toast.shown:has-text('El anfitrión te quitó de tu asiento: estás mirando')"
    )
    host.wait_for_selector(".log li:has-text('the host removed Bea: a bot plays their seat')")
    assert host.locator(".remove-people").count() == 0  # nobody else to remove
    # The match goes on without her: the host plays it to its end.
    play_until(host, ".summary:not([hidden])", random.Random(5))
    bea.context.close()
    host.context.close()
    assert ERRORS == []


def test_a_friend_who_gives_no_name_is_a_player_named_in_their_language(
    browser: Any, server: Server
) -> None:
    """Their profile and the leaderboards once called them "player", in English, whatever
    their language; the table calls them "jugador 2"."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    bea = context.new_page()
    bea.goto(f"{server.url}/t/{made['code']}")
    bea.click("[data-sit='1']")
    bea.wait_for_selector(".seat-list li:nth-child(2) .who:has-text('jugador 2')")
    me = json.loads(bea.evaluate("localStorage.getItem('tapete:player')"))
    assert server.get(f"/api/players/{me['id']}")["name"] == "jugador"
    context.close()


def test_partners_see_their_sides_in_the_waiting_room_before_choosing_seats(
    browser: Any, server: Server
) -> None:
    made = server.create("truco", params={"players": "4"}, seats=[{"kind": "human"}] * 4)
    host = _open_table(browser, server, made, lang="pt")
    host.wait_for_selector(".waiting .seat-list li")
    sides = [host.locator(f".seat-list li:nth-child({n}) .team").inner_text() for n in range(1, 5)]
    assert sides == ["dupla 1", "dupla 2", "dupla 1", "dupla 2"]
    solo = server.create("pocha")  # no partners: no sides said
    alone = _open_table(browser, server, solo)
    alone.wait_for_selector(".waiting .seat-list li")
    assert alone.locator(".seat-list .team").count() == 0
    host.context.close()
    alone.context.close()
    assert ERRORS == []


def _friend(browser: Any, server: Server, code: str, name: str, seat: int, locale: str) -> Any:
    """A friend's own browser, opened at the shared link and seated at ``seat``."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale=locale)
    p = context.new_page()
    p.on("pageerror", lambda e: ERRORS.append(str(e)))
    p.goto(f"{server.url}/t/{code}")
    p.fill(".join-name", name)
    p.click(f"[data-sit='{seat}']")
    p.wait_for_selector(f".seat-list li:nth-child({seat + 1}) .who:has-text('{name}')")
    return p


def test_a_rematch_one_friend_starts_is_told_to_the_others_with_who_started_it(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    ana = _open_table(browser, server, made)
    bea = _friend(browser, server, str(made["code"]), "Bea", 1, "es-ES")
    ana.click(".waiting .start")
    rng = random.Random(4)
    for _ in range(40):
        if all(p.locator(".summary:not([hidden])").count() for p in (ana, bea)):
            break
        for p in (ana, bea):
            click_one(p, rng)
        ana.wait_for_timeout(100)
    bea.click(".summary .rematch")
    ana.wait_for_selector(".summary", state="hidden")
    ana.wait_for_selector(".log li:has-text('Bea started a rematch: match 2')")
    bea.wait_for_selector(".log li:has-text('Bea empezó la revancha: partida 2')")
    bea.context.close()
    ana.context.close()
    assert ERRORS == []


def test_a_network_gone_silent_is_said_and_the_page_comes_back_to_its_seat(
    page: Any, server: Server
) -> None:
    network = Network(server)
    made = server.create(
        "pocha",
        params={"schedule": "[5]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
    )
    p = page
    p.add_init_script(WATCH_SOCKETS)
    p.goto(network.url + "/")
    p.evaluate(f"localStorage.setItem('tapete:token:{made['code']}', '{made['token']}')")
    p.goto(f"{network.url}/t/{made['code']}")
    p.click(".waiting .start")
    p.wait_for_selector(ACTIONABLE)
    hand = p.locator(".hand .card-btn").count()
    network.up.clear()
    # Nothing closes: only the silence tells. The page says so rather than sit still.
    p.wait_for_selector(".banner:has-text('Connection lost')", timeout=20_000)
    network.up.set()
    p.wait_for_selector(".banner", state="hidden", timeout=20_000)
    wait_until(p, "window.sockets.length >= 2 && window.sockets.at(-1).views > 0")
    assert p.locator(".hand .card-btn").count() == hand
    p.locator(ACTIONABLE).first.click()
    wait_until(p, "window.sockets.at(-1).views > 1")
    network.close()


def test_a_host_who_leaves_before_the_start_hands_the_table_to_a_friend_who_is_there(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
        grace=1,
    )
    ana = _open_table(browser, server, made)
    bea = _friend(browser, server, str(made["code"]), "Bea", 1, "es-ES")
    assert bea.locator(".waiting .start").count() == 0
    ana.context.close()  # the host's phone goes flat
    bea.wait_for_selector("#toast.shown:has-text('ahora el anfitrión eres tú')", timeout=10_000)
    bea.click(".waiting .start")
    bea.wait_for_selector(ACTIONABLE)
    bea.context.close()
    assert ERRORS == []


def test_a_friend_back_from_a_closed_tab_reads_which_moves_a_bot_made_for_them(
    browser: Any, server: Server
) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[3]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
        grace=0.5,
    )
    code = str(made["code"])
    ana = _open_table(browser, server, made)
    bea = _friend(browser, server, code, "Bea", 1, "es-ES")
    ana.click(".waiting .start")
    bea.wait_for_selector(".hand .card-btn")
    friend = bea.context
    bea.close()  # the tab, not the browser: the seat token stays
    said = f".log li:has-text('{stand_in_note('Bea')}')"
    rng = random.Random(8)
    play_until(ana, ".summary:not([hidden])", rng)
    assert ana.locator(said).count() == 1  # said once, not at each of its moves
    bea = friend.new_page()
    bea.goto(f"{server.url}/t/{code}")
    bea.wait_for_selector(".log li:has-text('Bea no está: un bot juega por él hasta que vuelva')")
    friend.close()
    ana.context.close()
    assert ERRORS == []


def test_the_last_language_chosen_is_the_one_kept_whichever_catalog_comes_last(
    page: Any, server: Server
) -> None:
    """Spanish then English chosen quickly, the Spanish catalog slower to come, once left the
    page, and the next one opened, in Spanish."""
    p = page
    p.goto(server.url + "/")
    p.wait_for_selector("#create")

    def slow(route: Any) -> None:
        time.sleep(0.5)
        route.continue_()

    p.route("**/api/i18n/es", slow)
    p.select_option("#lang", "es")
    p.select_option("#lang", "en")
    p.wait_for_timeout(1500)  # the Spanish catalog has come by now
    assert p.evaluate("localStorage.getItem('tapete:lang')") == "en"
    assert p.evaluate("document.documentElement.lang") == "en"
    assert p.locator("#lang").input_value() == "en"


def test_a_page_opening_keeps_the_language_chosen_meanwhile_in_another_tab(
    browser: Any, server: Server
) -> None:
    """A page opening in the browser's language once saved it when its catalog came, undoing
    Spanish chosen meanwhile in another tab: the next page opened was in English."""
    context = browser.new_context(locale="en-US")
    p = context.new_page()
    held: list[Any] = []  # the English catalog's request, held until the other tab has chosen
    p.route("**/api/i18n/en", lambda route: held.append(route))
    p.goto(server.url + "/", wait_until="domcontentloaded")
    for _ in range(100):
        if held:
            break
        p.wait_for_timeout(50)
    p.evaluate("localStorage.setItem('tapete:lang', 'es')")  # the other tab's choice
    held[0].continue_()
    p.wait_for_selector("#create")
    assert p.evaluate("localStorage.getItem('tapete:lang')") == "es"
    context.close()


def test_a_decision_says_what_it_means_and_a_dimmed_card_why_it_may_not_be_played(
    page: Any, server: Server
) -> None:
    """A newcomer reads under the buttons what a bid promises, and pressing a card the rules
    forbid now says the rule (not a bare "not allowed")."""
    p = page
    start_with_bots(p, server, "pocha(players=3, schedule=[5])", seed=2)
    p.wait_for_selector(".buttons .act")
    explain = p.locator(".hand-area .explain")
    assert explain.is_visible()
    assert explain.inner_text().startswith("bid: the tricks you will take this hand;")
    p.locator(".buttons .act").first.click()
    told = ""
    for _ in range(5):
        p.wait_for_selector(f"{ACTIONABLE}, .summary:not([hidden])", timeout=20_000)
        if p.locator(".summary:not([hidden])").count():
            break
        assert not explain.is_visible()  # the cards say it all: lit ones play
        dimmed = p.locator(".hand.my-turn .card-btn.dim")
        if dimmed.count() and not told:
            dimmed.first.click(force=True)  # aria-disabled: pressed to read why
            p.wait_for_selector("#toast.shown")
            told = p.locator("#toast").inner_text()
        p.locator(".hand.my-turn .card-btn.legal:not(.sent)").first.click()
    assert told.startswith("not allowed: must follow suit"), told


@pytest.mark.parametrize(
    "size",
    [(390, 844), (844, 390), (360, 640), (640, 360)],
    ids=["390x844", "844x390", "360x640", "640x360"],
)
def test_eight_seats_and_large_cards_fit_a_phone_screen(
    browser: Any, server: Server, size: tuple[int, int]
) -> None:
    """Eight seats and large cards on a phone once grew the felt to 1,100 px: the player had to
    scroll between the trick and their hand. On one screen now: the hand, the trick and whose
    turn it is, with every card a target of 40 px or more that a tap reaches."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True
    )
    p = context.new_page()
    p.goto(server.url + "/")
    p.evaluate("localStorage.setItem('tapete:large-cards', '1')")
    start_with_bots(p, server, "pocha(players=8, max_players=8, schedule=[5])", seed=8)
    rng = random.Random(3)
    while not (
        p.locator(".felt .trick .played").count()
        and p.locator(".hand.my-turn .card-btn.legal:not(.sent)").count()
    ):
        p.wait_for_selector(ACTIONABLE, timeout=20_000)
        if not p.locator(".felt .trick .played").count() or p.locator(".buttons .act").count():
            click_one(p, rng)
        else:
            p.wait_for_timeout(100)
    # Where the page puts you on your turn: the card it focuses in view, the hand's foot at the
    # screen's foot at most.
    p.evaluate("document.querySelector('.hand').scrollIntoView({block: 'end'})")
    p.wait_for_timeout(400)
    at = p.evaluate(AT_HAND)
    shot(p, f"eight-large-{size[0]}x{size[1]}")
    width, height = at["view"]["width"], at["view"]["height"]

    def inside(b: dict[str, float]) -> bool:
        return (
            b["x"] >= -0.5
            and b["y"] >= -0.5
            and b["x"] + b["width"] <= width + 0.5
            and b["y"] + b["height"] <= height + 0.5
        )

    assert len(at["hand"]) == 5 and at["trick"] and len(at["turn"]) == 1, at
    for part in ("hand", "trick", "turn"):
        assert all(inside(b) for b in at[part]), (part, at)
    for strip in at["strips"]:
        assert strip["width"] >= 44 and strip["height"] >= 44 and strip["tapped"], at["strips"]
    context.close()


def test_a_friend_who_leaves_during_the_rematch_offer_comes_back_to_the_new_match(
    browser: Any, server: Server
) -> None:
    """The friend closes the tab while the end of the match is shown, the host starts a
    rematch, the friend opens the link again: back at their seat in the new match, told who
    started it, with no summary of the old one over the felt, and playing it to its end."""
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    code = str(made["code"])
    ana = _open_table(browser, server, made)
    bea = _friend(browser, server, code, "Bea", 1, "en-US")
    ana.click(".waiting .start")
    rng = random.Random(5)

    def to_the_end(pages: list[Any]) -> None:
        for _ in range(60):
            if all(p.locator(".summary:not([hidden])").count() for p in pages):
                return
            for p in pages:
                click_one(p, rng)
            pages[0].wait_for_timeout(100)
        raise AssertionError("the match did not end")

    to_the_end([ana, bea])
    friend = bea.context
    bea.close()  # gone while the rematch is offered
    ana.wait_for_selector(".seat .chip.away")
    ana.click(".summary .rematch")
    ana.wait_for_selector(".summary", state="hidden")
    bea = friend.new_page()
    bea.on("pageerror", lambda e: ERRORS.append(str(e)))
    bea.goto(f"{server.url}/t/{code}")
    bea.wait_for_selector(".log li:has-text('Ana started a rematch: match 2')")
    assert bea.locator(".summary").is_hidden()
    assert bea.locator(".seat.me .who").inner_text() == "Bea"
    assert ana.locator(".seat .chip.away").count() == 0  # back: no longer said away
    to_the_end([ana, bea])
    for p in (ana, bea):
        assert p.locator(".bar .title").inner_text().startswith("Pocha")
    assert bea.locator(".summary .rematch").count() == 1  # and may offer the next one
    friend.close()
    ana.context.close()
    assert ERRORS == []


# Every element whose change of place, size or look would glide or fade rather than happen at
# once: a transition or an animation of some length.
MOVING = """[...document.querySelectorAll('*')].filter((e) => {
  const s = getComputedStyle(e);
  const long = (v) => v.split(',').some((d) => parseFloat(d) > 0);
  return long(s.transitionDuration) || (s.animationName !== 'none' && long(s.animationDuration));
}).map((e) => e.tagName + '.' + e.className)"""


def test_a_player_who_asks_for_less_motion_sees_no_card_glide_or_fade(
    browser: Any, server: Server
) -> None:
    """Cards that rose and faded in 0.15 s, a trick that glided to its winner in half a second
    and the toast that slid up ignored the system's "reduce motion" setting."""
    context = browser.new_context(
        viewport={"width": 1360, "height": 900}, locale="en-US", reduced_motion="reduce"
    )
    p = context.new_page()
    start_with_bots(p, server, "pocha(schedule=[2])", seed=31)
    rng = random.Random(31)
    # Until a trick is won and its cards are on their way to the winner.
    while not p.locator(".flying .played").count():
        p.wait_for_selector(ACTIONABLE, timeout=20_000)
        click_one(p, rng, prefer_cards=True)
    assert p.evaluate(MOVING) == []
    context.close()


def test_the_table_s_names_for_a_screen_reader_follow_a_language_switch_mid_match(
    page: Any, server: Server
) -> None:
    """The felt and the trick kept the names of the language the page opened in."""
    p = page
    start_with_bots(p, server, "pocha(schedule=[2])", seed=32)
    p.wait_for_selector(ACTIONABLE)
    p.focus("#lang")
    p.select_option("#lang", "es")
    wait_until(p, "document.documentElement.lang === 'es'")
    wait_until(p, f"document.querySelector('.hand').ariaLabel === {tr('es', 'your hand')!r}")
    page_region = p.get_by_role("region", name=tr("es", "table"), exact=True)
    felt = page_region.get_by_role("group", name=tr("es", "table"), exact=True)
    assert felt.get_by_role("group", name=tr("es", "trick"), exact=True).count() == 1
    assert p.get_by_role("group", name=tr("es", "your hand"), exact=True).count() == 1


def test_partners_on_the_felt_are_told_apart_by_mark_not_only_colour(
    page: Any, server: Server
) -> None:
    """The two sides of Truco 2v2 were marked by one diamond in two colours."""
    p = page
    start_with_bots(p, server, "truco(players=4)", seed=33)
    p.wait_for_selector(".seat.team1")
    marks = p.evaluate(
        "[0, 1].map((k) => getComputedStyle(document.querySelector(`.seat.team${k} .who`),"
        " '::before').content)"
    )
    assert marks[0] != marks[1], marks
    # Each seat says its side in words (a screen reader reads that, not the mark).
    for seat, side in [(0, 1), (1, 2), (2, 1), (3, 2)]:
        lines = p.locator(f'.seat[data-seat="{seat}"] .lines').inner_text()
        assert f"team {side}" in lines, lines


def test_at_200_percent_zoom_your_hand_comes_into_view_with_the_whole_felt(
    browser: Any, server: Server
) -> None:
    """A laptop's 1360 x 900 screen at 200 % zoom is 680 x 450 CSS px: the hand lies beside the
    felt, at its foot, and the focus on your turn once scrolled your card to the screen's middle,
    leaving the seat across the table (and its card in the trick) above the screen."""
    context = browser.new_context(
        viewport={"width": 680, "height": 450}, device_scale_factor=2, locale="en-US"
    )
    p = context.new_page()
    start_with_bots(p, server, "truco", seed=34)
    p.wait_for_selector(ACTIONABLE)
    wait_until(p, ON_A_MOVE)
    p.wait_for_timeout(300)
    boxes = p.evaluate(
        "[...document.querySelectorAll('.seat'), document.activeElement].map((e) => {"
        " const r = e.getBoundingClientRect();"
        " return [e.className, Math.round(r.top), Math.round(r.bottom)]; })"
    )
    assert all(top >= 0 and bottom <= 450 for _, top, bottom in boxes), boxes
    assert p.evaluate("document.documentElement.scrollWidth") <= 680
    context.close()


def test_a_keyboard_player_raises_and_answers_truco_to_the_end_of_the_match(
    page: Any, server: Server
) -> None:
    """Truco asks more than a card: a raise offered beside the cards, an answer (accept, run,
    raise again) instead of them. Enter, B and the arrows reach each, the focus on what the rules
    ask after every move, from the start to the end-of-match dialog."""
    p = page
    open_with_bots(p, server, "truco", seed=35)
    p.focus(".waiting .start")
    p.keyboard.press("Enter")
    raised = answered = 0
    while True:
        p.wait_for_selector(f"{ACTIONABLE}, .summary:not([hidden])", timeout=20_000)
        if p.locator(".summary:not([hidden])").count():
            break
        assert p.evaluate(ON_A_MOVE), p.evaluate(FOCUSED)
        labels = p.locator(".buttons .act").all_inner_texts()
        if "accept" in labels:
            assert p.evaluate("document.activeElement.textContent") == "accept"
            answered += 1
        elif "truco!" in labels and not raised:
            p.keyboard.press("b")  # from a card to the buttons, then along them
            for _ in range(labels.index("truco!")):
                p.keyboard.press("ArrowRight")
            assert p.evaluate("document.activeElement.textContent") == "truco!"
            raised += 1
        before = p.locator(".log li").count()
        p.keyboard.press("Enter")
        wait_until(
            p,
            f"document.querySelectorAll('.log li').length > {before}"
            " || !document.querySelector('.summary').hidden",
        )
    assert raised and answered, (raised, answered)
    me = p.locator(".seat.me .who").inner_text()
    log = p.locator(".log").inner_text()
    assert f"{me} calls truco!" in log and f"{me} accepts" in log, log
    assert p.evaluate("document.activeElement.closest('.summary') !== null"), p.evaluate(FOCUSED)


def test_a_screen_reader_hears_the_first_deal_of_a_match_started_while_it_listened(
    page: Any, server: Server
) -> None:
    """The log that came with the start (who deals, the card turned up) was taken for one sent
    again on a reconnection and never read out: the first thing heard was "your turn"."""
    p = page
    p.add_init_script(LISTEN)
    open_with_bots(p, server, "truco", seed=36)
    p.focus(".waiting .start")
    p.keyboard.press("Enter")
    p.wait_for_selector(ACTIONABLE)
    heard: list[str] = p.evaluate("window.heard")
    # The card turned up in words, as the log names it.
    assert any(" deals, " in h and " of " in h and "turned up" in h for h in heard), heard


def test_a_screen_reader_is_told_once_that_its_turn_s_clock_runs_low(
    browser: Any, server: Server
) -> None:
    """The clock said nothing to a screen reader: a player who could not see it learnt of it
    only when the move was played for them."""
    made = server.create(
        "pocha",
        params={"schedule": "[2]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        turn_timer=12,
    )
    p = _open_table(browser, server, made, lang="es")
    p.add_init_script(LISTEN)
    p.reload()
    p.click(".waiting .start")
    p.wait_for_selector(".log li:has-text('sin tiempo')", timeout=30_000)
    heard: list[str] = p.evaluate("window.heard")
    warned = [h for h in heard if "segundos para jugar" in h]
    assert len(warned) == 1, heard
    assert heard.index(warned[0]) < next(i for i, h in enumerate(heard) if "sin tiempo" in h)
    p.context.close()
    assert ERRORS == []


def test_refusals_are_told_in_spanish_with_their_code_kept_for_developers(
    browser: Any, server: Server
) -> None:
    """A toast once said the server's English in its tooltip ("seats-open: fill the empty
    seats …") and a refused seat its English detail: a Spanish player now reads one Spanish
    sentence saying what happened and what to do; the code is on the toast and the console."""
    made = server.create("truco_paulista", seats=[{"kind": "human"}, {"kind": "human"}])
    host = _open_table(browser, server, made, lang="es")
    said: list[str] = []
    host.on("console", lambda m: said.append(m.text))
    host.click(".waiting .start")
    host.wait_for_selector("#toast.shown")
    toast = host.locator("#toast")
    assert toast.inner_text() == "llena los asientos libres con bots o espera a más jugadores"
    assert toast.get_attribute("data-rule") == "seats-open"
    assert not toast.get_attribute("title")  # no English for the person to hover onto
    assert any("seats-open" in line for line in said), said

    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="es-ES")
    bea = context.new_page()
    bea.goto(f"{server.url}/t/{made['code']}")
    bea.wait_for_selector("[data-sit]")
    bea.fill(".join-name", "bot 1")
    bea.click("[data-sit]")
    bea.wait_for_selector("#toast.shown")
    toast = bea.locator("#toast")
    assert toast.inner_text() == (
        "ese nombre es el que la mesa da a sus propios asientos: elige otro nombre"
    )
    assert toast.get_attribute("data-rule") == "seat-name"
    assert "name:" in str(toast.get_attribute("data-detail"))  # the server's words, for developers
    context.close()
    host.context.close()
    assert ERRORS == [], ERRORS


def test_a_deal_check_the_server_refuses_is_not_told_as_deals_that_do_not_follow(
    browser: Any,
) -> None:
    """The check of the deals, refused (a rate limit here), once said "The deals do not
    follow from the seed!" and the HTTP status in English: a fair match called rigged."""
    from tapete.web import RateLimits

    with running(rate_limits=RateLimits.parse(["lookups=1/minute"])) as live:
        made = live.create(
            "pocha",
            params={"schedule": "[1]"},
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            bot_delay=0.02,
        )
        p = _open_table(browser, live, made, lang="es")
        p.click(".waiting .start")
        play_until(p, ".summary:not([hidden])", random.Random(3))
        p.wait_for_selector(".summary .fair .check-deal")
        with pytest.raises(urllib.error.HTTPError):  # a code that names no table: the limit
            live.get("/api/tables/ZZZZZZ")
        p.click(".summary .fair .check-deal")
        p.wait_for_selector(".summary .fair .deals-unchecked")
        said = p.locator(".summary .fair .deals-unchecked").inner_text()
        assert said.startswith("No se pudieron comprobar los repartos: Demasiadas solicitudes"), (
            said
        )
        assert p.locator(".summary .fair .deals-bad").count() == 0
        p.context.close()
    assert ERRORS == [], ERRORS


def test_a_seat_token_the_table_does_not_take_is_told_in_spanish(
    browser: Any, server: Server
) -> None:
    """A page opened with a token the table refuses once watched without a word: the person
    looked for their hand."""
    made = server.create("pocha", params={"schedule": "[1]"})
    p = _open_table(browser, server, {**made, "token": "not-a-seat-s-token"}, lang="es")
    p.wait_for_selector("#toast.shown")
    said = p.locator("#toast").inner_text()
    assert said == "Este navegador ya no tiene asiento en esta mesa: estás mirando", said
    assert p.evaluate(f"localStorage.getItem('tapete:token:{made['code']}')") is None
    p.context.close()
    assert ERRORS == [], ERRORS


def test_a_table_made_with_options_keeps_them_in_sight_for_its_players_and_watchers(
    browser: Any, server: Server
) -> None:
    """Truco to 6 with the clean deck, made in the lobby's form: once the match started, its
    title told the hand and nothing on the page said which rules were in force, to the host
    or to a friend who came to watch. The line stays until the match is over."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "Ana")
    p.select_option('select[name="game"]', "truco")
    p.click("#params summary")
    p.fill('input[name="p:target"]', "6")
    p.fill('input[name="p:deck"]', "clean")
    p.select_option('select[name="seat1"]', "bot:random")
    p.click("#table-options summary")
    p.fill('input[name="bot_delay"]', "0")
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    assert p.locator(".in-force").is_hidden()  # the waiting room's title says them
    assert p.locator(".title").inner_text() == "Truco — deck: clean, points to win: 6"
    code = p.url.rsplit("/", 1)[-1]
    p.click(".waiting .start")
    p.wait_for_selector(".in-force:not([hidden])")
    said = "Rules at this table: deck: clean, points to win: 6"
    assert p.locator(".in-force").inner_text() == said
    watcher = browser.new_context(locale="es-ES").new_page()
    watcher.goto(f"{server.url}/t/{code}")
    watcher.wait_for_selector(".in-force:not([hidden])")
    assert watcher.locator(".in-force").inner_text() == (
        "Reglas en esta mesa: baraja: clean, puntos para ganar: 6"
    )
    watcher.context.close()
    play_until(p, ".summary:not([hidden])", random.Random(2))
    assert p.locator(".in-force").inner_text() == said
    # played to 6, not 12: the loser ends below 6, and the winner's last hand took him past it
    room = server.app.state.rooms.get(code)
    assert room is not None and room.game.params.target == 6
    assert min(room.state.scores) < 6 <= max(room.state.scores)
    context.close()
    assert errors == [], errors


def test_two_options_refused_together_are_both_pointed_at_and_named(
    browser: Any, server: Server
) -> None:
    """Pocha's suits and ranks shape the French deck only: the refusal names them together
    ("suits/ranks"), which is no field, and the form pointed at nothing and named the pair by
    its code name. Both fields are marked now, the first focused, each named by its label."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-US")
    p = context.new_page()
    p.goto(server.url + "/")
    p.fill('input[name="name"]', "Ana")
    p.select_option('select[name="game"]', "pocha")
    p.click("#params summary")
    p.fill('input[name="p:suits"]', "3")
    p.click("#create button[type=submit]")
    p.wait_for_selector("#toast.shown")
    for name in ("suits", "ranks"):
        assert p.locator(f'input[name="p:{name}"]').get_attribute("aria-invalid") == "true"
    assert p.locator('input[name="p:suits"]').evaluate("el => el === document.activeElement")
    assert p.locator("#toast").inner_text() == (
        "suits / ranks: suits/ranks=[3, 13] is not accepted: suits and ranks shape the French"
        " deck only (deck=french)"
    )
    p.fill('input[name="p:suits"]', "4")
    p.click("#create button[type=submit]")
    p.wait_for_selector(".waiting:not([hidden])")
    context.close()


def test_a_tute_match_tied_on_points_says_at_its_end_why_its_winner_won(
    browser: Any, server: Server
) -> None:
    """The end of a one-deal Tute at 60 to 60 showed two equal scores and a winner, with no
    reason: the last trick decides a tie, and the end of the match says so in each language."""
    game = tapete.load("tute")
    rng, state, moves = random.Random(15), game.new_state(15), []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        moves.append((seat, game.format_action(action)))
        state = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (60, 60) and outcome.winners == (0,)
    made = server.create("tute", seats=[{"kind": "human"}, {"kind": "human"}], seed=15)
    bea_token = server.post(f"/api/tables/{made['code']}/join", {"name": "Bea"})["token"]
    ana, bea = server.client(), server.client()
    ana.hello(made["code"], made["token"])
    bea.hello(made["code"], bea_token)
    ana.send({"type": "start"})
    version = ana.expect("view")["version"]
    for seat, move in moves:
        (ana, bea)[seat].send({"type": "act", "action": move, "version": version})
        version = ana.view_at(version + 1)["version"]
    assert ana.view is not None and ana.view["result"]["names"] == ["Ana"]
    ana.close()
    bea.close()
    for lang, why in (
        ("en", "tied on points: the last trick decides"),
        ("es", "empate a puntos: decide la última baza"),
        ("pt", "empate em pontos: decide a última vaza"),
    ):
        p = _open_table(browser, server, made, lang)
        dialog = p.get_by_role("dialog")
        dialog.wait_for()
        assert dialog.locator(".why").inner_text() == why
        # Said with the winner as the dialog's description, when the keyboard is taken into it.
        assert p.evaluate(
            "document.getElementById(document.querySelector('.summary')"
            ".getAttribute('aria-describedby')).textContent"
        ).split() == [*p.locator(".summary .winners").inner_text().split(), *why.split()]
        p.context.close()
    assert ERRORS == []


# A card as its code (3e, 12b, Kd) or its glyph (K♦, 10♥): what a screen reader would read out
# as letters ("3e", "K black diamond suit") rather than the card's name.
CARD_SPELLED = re.compile(r"\b(1[0-2]|[1-9])[oceb]\b|\b[2-9TJQKA][cdhs]\b|[♣♦♥♠]")


def spoken(snapshot: str) -> list[str]:
    """What a screen reader says of each node of an ARIA snapshot: its name when it has one
    (not the text it shows under it), else its text."""
    said = []
    for node in snapshot.splitlines():
        named = re.match(r'\s*- \'?[\w-]+ "((?:[^"\\]|\\.)*)"', node)
        if named:
            said.append(named.group(1))
        elif ": " in node:
            said.append(node.split(": ", 1)[1].strip('"'))
    return said


@pytest.mark.parametrize("spec", ["tute", "truco"])
def test_a_screen_reader_hears_cards_in_words_in_refusals_buttons_and_hints(
    page: Any, server: Server, spec: str
) -> None:
    """A card not allowed was named "6 of oros, not allowed: ... you hold 4e", Truco's button
    "play K♦ face down" and the hint (read out as it comes) "hint: play 3e": the codes and the
    glyphs are letters and symbols to a screen reader, not cards."""
    p = page
    start_with_bots(p, server, spec, seed=5)
    names: list[str] = []
    hints = 0
    while True:
        p.wait_for_selector(f"{ACTIONABLE}, .summary:not([hidden])", timeout=20_000)
        if p.locator(".summary:not([hidden])").count():
            break
        names += spoken(p.locator(".hand-area").aria_snapshot())
        if hints < 3:  # asked by its key, said in the live region under the tools
            p.keyboard.press("h")
            p.wait_for_selector(".hint-box:not(:empty)")
            names += spoken(p.locator(".hint-box").aria_snapshot())
            hints += 1
        p.keyboard.press("Enter")
    assert any("not allowed" in n for n in names) or spec == "truco", names
    assert any("face down" in n for n in names) or spec == "tute", names
    assert any("hint" in n for n in names), names
    assert not [n for n in names if CARD_SPELLED.search(n)], names


SPANISH_CODE = re.compile(r"\b(1[0-2]|[1-9])[oceb]\b")
LOCALES = {"en": "en-US", "es": "es-ES", "pt": "pt-BR"}


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_hint_names_spanish_cards_as_the_table_does_not_by_their_codes(
    browser: Any, server: Server, lang: str
) -> None:
    """The hint at a Tute table read "hint: play 11c": a code of the record, where the table's
    cards, its refusals and the hint's own spoken words name the card (caballo de copas)."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale=LOCALES[lang])
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    start_with_bots(p, server, "tute", seed=5)
    p.wait_for_selector(".hand.my-turn .card-btn.legal")
    p.click(".tools .hint-btn")
    p.wait_for_selector(".hint-box:not(:empty)")
    shown = p.locator(".hint-box [aria-hidden=true]").inner_text()
    hinted = p.locator(".hand .card-btn.hinted")
    assert hinted.count() == 1, shown  # the hint of this deal's first turn is a card
    name = str(hinted.get_attribute("aria-label"))
    assert name in shown, (name, shown)
    assert not SPANISH_CODE.search(shown), shown
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_trick_s_area_is_named_by_the_game_s_word_for_it(
    browser: Any, server: Server, lang: str
) -> None:
    """A screen reader named Truco's trick area "baza" / "vaza", where its rules, log and
    replay say ronda / rodada; Tute's keeps its trick, after a switch of language too."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale=LOCALES[lang])
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    words = {
        "truco": {"en": "round", "es": "ronda", "pt": "rodada"},
        "tute": {"en": "trick", "es": "baza", "pt": "vaza"},
    }
    for spec, word in words.items():
        start_with_bots(p, server, spec, seed=2)
        p.wait_for_selector(ACTIONABLE)
        assert p.locator(".felt .trick").get_attribute("aria-label") == word[lang]
    other = "es" if lang != "es" else "pt"
    p.select_option("#lang", other)
    wait_until(p, f"document.querySelector('.felt .trick').ariaLabel === {word[other]!r}")
    context.close()
    assert errors == [], errors


SPANISH_NAME = {  # a Spanish card's name as the table says it, in each language
    "en": r" of (oros|copas|espadas|bastos)$",
    "es": r" de (oros|copas|espadas|bastos)$",
    "pt": r" de (ouros|copas|espadas|paus)$",
}


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_log_names_spanish_cards_beside_their_drawings_not_by_their_codes(
    browser: Any, server: Server, lang: str
) -> None:
    """A Tute log line read "bot 2 plays [drawing] 12e": the record's code beside the card's
    drawing, where the table's cards and the hint name it (rey de espadas). French cards keep
    their glyphs (K♦: see the Truco tests)."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale=LOCALES[lang])
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    start_with_bots(p, server, "tute", seed=5)
    rng = random.Random(5)
    while p.locator(".log .card-chip").count() < 4:
        p.wait_for_selector(ACTIONABLE, timeout=20_000)
        click_one(p, rng)
    for chip in p.locator(".log .card-chip").all()[:4]:
        shown = chip.locator("[aria-hidden=true]:not(svg)").inner_text()
        assert shown == chip.locator(".sr").inner_text(), chip.inner_html()
        assert re.search(SPANISH_NAME[lang], shown) and not SPANISH_CODE.search(shown), shown
    lines = p.locator(".log").inner_text()
    assert not SPANISH_CODE.search(lines), lines
    context.close()
    assert errors == [], errors


# Whether the focused control lies under something else at its middle (a dialog over it): a
# keyboard user would press what they cannot see.
FOCUS_COVERED = """() => {
  const e = document.activeElement;
  const r = e.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && !e.contains(top) && !top.contains(e);
}"""


def test_the_end_of_match_dialog_keeps_the_keyboard_off_what_it_covers_and_gives_it_back(
    browser: Any, server: Server
) -> None:
    """At 200 % zoom (a laptop's 1360 by 900 is 680 by 450 CSS pixels) the dialog lies over the
    side panel: Tab from its buttons went on to the rules, the lobby and the record's links
    under it. Closed, the keyboard goes back to what opened it."""
    context = browser.new_context(viewport={"width": 680, "height": 450}, locale="en-US")
    p = context.new_page()
    start_with_bots(p, server, "pocha(schedule=[1])", seed=16)
    play_until(p, ".summary:not([hidden])", random.Random(16))
    assert p.evaluate("document.activeElement.matches('.summary .rematch')"), p.evaluate(FOCUSED)
    for key in ["Tab"] * 30 + ["Shift+Tab"] * 30:
        p.keyboard.press(key)
        if p.evaluate("document.activeElement !== document.body"):
            assert not p.evaluate(FOCUS_COVERED), p.evaluate(FOCUSED)
    p.focus(".summary .close-summary")
    p.keyboard.press("Enter")
    p.wait_for_selector(".summary", state="hidden")
    p.focus(".buttons .reopen-summary")
    p.keyboard.press("Enter")
    p.wait_for_selector(".summary:not([hidden])")
    p.keyboard.press("Escape")
    p.wait_for_selector(".summary", state="hidden")
    assert p.evaluate("document.activeElement.matches('.buttons .reopen-summary')"), p.evaluate(
        FOCUSED
    )
    p.keyboard.press("Tab")  # and the table behind is in reach again
    assert p.evaluate("document.activeElement.closest('.layout') !== null"), p.evaluate(FOCUSED)
    context.close()


def test_in_forced_colours_the_seat_to_act_stands_out_from_the_others(
    browser: Any, server: Server
) -> None:
    """Windows' contrast themes draw every border in one colour and drop the glow: each seat
    wore the same frame, and nothing showed whose turn it was."""
    context = browser.new_context(
        viewport={"width": 1360, "height": 900}, locale="en-US", forced_colors="active"
    )
    p = context.new_page()
    start_with_bots(p, server, "truco", seed=5)
    p.wait_for_selector(f"{ACTIONABLE}")
    frame = """(e) => { const s = getComputedStyle(e);
      return `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`; }"""
    turn = p.locator(".seat.turn").evaluate(frame)
    others = {s.evaluate(frame) for s in p.locator(".seat:not(.turn)").all()}
    assert others and turn not in others, (turn, others)
    context.close()


def test_each_card_of_the_trick_is_said_with_who_played_it(page: Any, server: Server) -> None:
    """The felt shows who played each card by where it lies; a screen reader heard only
    "7 of oros", "3 of copas", and whose each was only from the log."""
    p = page
    start_with_bots(p, server, "pocha(schedule=[3])", seed=17, bot_delay=1)
    play_until(p, ".hand.my-turn .card-btn.legal", random.Random(17))  # the bids
    p.locator(".hand.my-turn .card-btn.legal").first.focus()
    p.keyboard.press("Enter")
    p.wait_for_selector(".log li:last-child:has-text('Ana plays')")
    trick = p.get_by_role("group", name="trick", exact=True)
    said = [str(img.get_attribute("aria-label")) for img in trick.get_by_role("img").all()]
    assert any(s.startswith("Ana: ") for s in said), said
    assert all(re.fullmatch(r"(Ana|bot \d · random): .+ of .+", s) for s in said), said


def test_the_waiting_room_keeps_the_keyboard_off_what_it_covers_at_200_percent_zoom(
    browser: Any, server: Server
) -> None:
    """At 200 % zoom the waiting room lies over the side panel: Tab went on from its start
    button to the rules and lobby links under it. They are in the waiting room now."""
    context = browser.new_context(viewport={"width": 680, "height": 450}, locale="en-US")
    p = context.new_page()
    open_with_bots(p, server, "pocha", seed=18)
    visited = set()
    for _ in range(40):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement !== document.body"):
            assert not p.evaluate(FOCUS_COVERED), p.evaluate(FOCUSED)
            visited.add(p.evaluate(FOCUSED))
    assert any(v.startswith("a. rules") for v in visited), visited
    assert any(v.startswith("a. lobby") for v in visited), visited
    context.close()


def test_the_lobby_s_fields_are_named_by_their_labels_and_described_by_their_help(
    page: Any, server: Server
) -> None:
    """Each seat's select and each rule option's field was named by its label and its help
    run together ("seat 2 counts the cards still out and plays the odds"), and the seat's help
    was read again as its description."""
    p = page
    p.goto(server.url + "/")
    p.click("#params summary")
    seat = p.get_by_role("combobox", name="seat 2", exact=True)
    assert seat.count() == 1
    assert (
        seat.evaluate(
            "(e) => document.getElementById(e.getAttribute('aria-describedby')).textContent"
        )
        == p.locator("#seat1-help").inner_text()
    )
    players = p.get_by_role("textbox", name="players", exact=True)
    assert players.count() == 1 and players.input_value() == "4"
    assert "how many" in players.evaluate(
        "(e) => document.getElementById(e.getAttribute('aria-describedby')).textContent"
    )
    hook = p.locator('#params label.option[title="dealer_hook"]')
    words = hook.locator("span span").inner_text()
    assert p.get_by_role("checkbox", name=words, exact=True).count() == 1


def test_undo_by_click_and_by_key_takes_back_a_move_and_the_bots_answers(
    page: Any, server: Server
) -> None:
    p = page
    start_with_bots(p, server, "pocha(schedule=[3])", seed=5)
    p.wait_for_selector(ACTIONABLE)
    assert p.locator(".tools .undo-btn").is_hidden()  # nothing of yours to take back yet
    bids = [b.inner_text() for b in p.locator(".buttons .act").all()]
    p.locator(".buttons .act").first.click()
    p.wait_for_selector(".tools .undo-btn:not([hidden])")
    p.wait_for_selector(ACTIONABLE)  # the bots bid, the first card is yours to play
    hand = p.locator(".hand .card-btn").count()
    p.click(".tools .undo-btn")
    # Back to your bid, with the same choices; the log says what happened.
    wait_until(p, "document.querySelectorAll('.buttons .act').length > 0")
    assert [b.inner_text() for b in p.locator(".buttons .act").all()] == bids
    assert p.locator(".tools .undo-btn").is_hidden()
    assert "took back their last move" in p.locator(".log").inner_text()
    # Played again, then taken back from the keyboard.
    p.locator(".buttons .act").last.click()
    p.wait_for_selector(".tools .undo-btn:not([hidden])")
    p.wait_for_selector(ACTIONABLE)
    assert p.locator(".hand .card-btn").count() == hand
    p.keyboard.press("u")
    wait_until(p, "document.querySelector('.tools .undo-btn').hidden")
    assert p.locator(".log").inner_text().count("took back their last move") == 2
    assert "U undo" in p.locator(".keys").inner_text()


def test_a_profile_whose_only_match_had_a_take_back_says_it_is_not_rated(
    page: Any, server: Server
) -> None:
    p = page
    me = server.post("/api/players", {"name": "Ana"})
    start_with_bots(p, server, "pocha(schedule=[1])", seed=6, player=me["token"])
    p.wait_for_selector(ACTIONABLE)
    p.locator(ACTIONABLE).first.click()
    p.wait_for_selector(".tools .undo-btn:not([hidden])")
    p.click(".tools .undo-btn")
    p.wait_for_selector(".log li:has-text('took back their last move')")
    play_until(p, ".summary:not([hidden])", random.Random(4))
    p.goto(f"{server.url}/players/{me['id']}")
    p.wait_for_selector(".profile-page .results tbody tr")
    assert p.locator(".profile-page .played strong").inner_text() == "1"
    assert p.locator(".profile-page .ratings").count() == 0
    assert "No rated matches yet" in p.locator(".profile-page").inner_text()


def test_a_friend_in_a_browser_joins_a_table_hosted_at_a_terminal(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """``tapete host`` at a terminal, a friend by its link in a browser: no Start to press, the
    terminal's host starts the match once the friend sits, and both play it to its end."""
    seats = zoe_seats(server, tmp_path)
    params = {"players": "3", "schedule": "[2]", "tiebreak_players": "nobody"}
    ticket = make_table(server.url, "pocha", params, ["human", "human", "easy"], "Zoe", seats=seats)
    out = io.StringIO()
    ended: list[int] = []

    def host() -> None:
        async def main() -> None:
            prompt = hosting(server, ticket.code, ticket.token, out, seats)
            ended.append(await asyncio.wait_for(play_at_prompt(prompt, []), 120))

        asyncio.run(main())

    thread = threading.Thread(target=host, daemon=True)
    thread.start()
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    bea = context.new_page()
    bea.goto(f"{server.url}/t/{ticket.code}")
    bea.fill(".join-name", "Bea")
    bea.click("[data-sit='1']")
    play_until(bea, ".summary:not([hidden])", random.Random(8))
    thread.join(60)
    context.close()
    assert ended == [0]
    said = out.getvalue()
    assert "2. Bea" in said and "match over" in said and "not allowed" not in said


REPLAYED = [
    ("pocha", {"players": "3", "schedule": "[1, 2]"}),
    ("oh_hell", {"players": "4", "schedule": "[2]"}),
    ("tute", {}),
    ("tute", {"players": "4"}),
    ("truco", {"target": "3"}),
    ("truco", {"players": "4", "target": "2"}),
    ("poch", {"rounds": "1"}),
    ("pottle", {"deals": "1", "extra_deals": "0"}),
]


@pytest.mark.parametrize(("game", "params"), REPLAYED)
def test_the_replay_s_hands_are_the_engine_s_at_every_move(
    page: Any, server: Server, game: str, params: dict[str, str]
) -> None:
    """The replay page works out each hand from the record's deal and moves (in the browser):
    at every move of every deal, each seat's cards shown are the cards the engine says it holds,
    the cards on the table were laid by the seats the engine's table says, and the bids and the
    scores are the table's (in Poch and Pottle a bet's or an ante's chips count at once)."""
    from tapete import record
    from tapete.tui.session import Replay

    p = page
    code, doc = bots_match(server, p, game, params, "random", 5)
    players = len(doc["seats"])
    replay = Replay(record.loads(json.dumps(doc)))
    p.goto(f"{server.url}/replay/{code}?match=0")
    p.wait_for_selector(".replay-seat")
    shown = """() => {
      const all = (css, f) => [...document.querySelectorAll(css)].map(f);
      return {
        hands: all('.replay-seat', (s) => [...s.querySelectorAll('[data-card]')].map(
          (c) => c.dataset.card).sort()),
        table: all('.replay-trick figure', (f) => Number(f.dataset.seat)),
        bids: all('.replay-seat', (s) => s.querySelector('.bid')?.textContent ?? null),
        scores: all('.replay-scores .total strong', (t) => Number(t.textContent)),
      };
    }"""
    wrong: list[tuple[Any, ...]] = []
    for number, deal in enumerate(doc["deals"]):
        if number:
            p.click("[data-go='next-deal']")
        start = replay.starts[number]
        for move in range(len(deal["actions"])):
            p.click("[data-go='forward']")
            state = replay.steps[start + move].after
            replay.position = start + move + 1
            table = replay.scene("en").table
            bids = [next((f for f in b.lines if f.startswith("bid ")), None) for b in table.seats]
            engine: dict[str, object] = {
                "hands": [sorted(replay.open_hand(state, s)) for s in range(players)],
                # Who laid the cards on the table (with every hand open, a card played face
                # down is shown face up: the match is over).
                "table": [t.seat for t in (table.trick or table.last_trick)],
                **({"bids": bids} if any(bids) else {}),  # a game with bids
                "scores": list(table.scores),
            }
            if move == len(deal["actions"]) - 1:
                # After a deal's last move the engine has dealt the next: its scores only.
                engine = {"scores": engine["scores"]}
            page_shows = p.evaluate(shown)
            for what, value in engine.items():
                if page_shows[what] != value:
                    wrong.append(
                        (number, move, deal["actions"][move], what, page_shows[what], value)
                    )
    assert wrong == [], wrong[:3]
