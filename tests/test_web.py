"""The hub's web page in a real browser: headless Chromium from the Debian packages, driven by
selenium through the Debian chromedriver (no browser download)."""
from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path
from typing import Iterator

import pytest

from host.hub.hub import Hub
from host.screen.monitor import Session
from host.sim.runner import local_board
from host.web.server import Web, serving
from host.sim.playout import Playout

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
SHERIFF = {"game": "sheriff", "players": 4}
needs_browser = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="needs the Debian packages chromium and chromium-driver (apt-get install chromium "
           "chromium-driver; .ci/run installs them when it runs as root)")


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="tapmat-chromium-")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1400,1000"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=opts)
    driver.profile_dir = profile
    return driver


def close(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


def png_variety(png: bytes) -> tuple[int, int, int]:
    """Width, height and the number of distinct byte values of the pixel data: a blank page
    has a handful, a drawn table hundreds."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    at, data = 8, b""
    while at < len(png):
        n = int.from_bytes(png[at:at + 4], "big")
        if png[at + 4:at + 8] == b"IDAT":
            data += png[at + 8:at + 8 + n]
        at += 12 + n
    return width, height, len(set(zlib.decompress(data)))


def wait_text(driver, element_id: str, text: str, timeout: float) -> float:
    """Seconds until ``text`` shows in the element (AssertionError after ``timeout``)."""
    began = time.monotonic()
    while text not in driver.find_element("id", element_id).text:
        assert time.monotonic() - began < timeout, "%r never showed in #%s: %s" % (
            text, element_id, driver.find_element("id", element_id).text)
        time.sleep(0.02)
    return time.monotonic() - began


def wait_for(check, timeout: float, what: str):
    """What ``check()`` gave once it gave something true (AssertionError after ``timeout``). A page
    that redraws itself may replace an element between ``check`` finding it and reading it: that
    look counts as not yet (the hall page failed so once)."""
    from selenium.common.exceptions import StaleElementReferenceException
    began = time.monotonic()
    while True:
        try:
            got = check()
        except StaleElementReferenceException:
            got = None
        if got:
            return got
        assert time.monotonic() - began < timeout, "no " + what
        time.sleep(0.05)


@contextlib.contextmanager
def sheriff_site(names: tuple[str, ...] = ()) -> Iterator[tuple[Web, Playout]]:
    """A virtual board with a Sheriff game waiting for the Sheriff's decision (every bag closed),
    its hub (the players named ``names``) and web page."""
    with local_board() as folder:
        port = str(folder / "tty")
        hub = Hub(port).start()
        session = Session(port)
        session.connect()
        session.new_game(SHERIFF, replace=True)
        session.close()
        game = Playout(SHERIFF, 5)
        while not any(o["a"] == "pass" for o in game.table.legal()):
            ev = hub.send_action(game.step())
            assert ev.kind == "accepted", ev.text
        for seat, name in enumerate(names):
            hub.table.name(seat, name)
        try:
            with serving(Web(hub, port=0)) as page:
                yield page, game
        finally:
            hub.close()


@pytest.fixture(scope="module")
def site():
    with sheriff_site() as made:
        yield made


def test_a_seat_link_needs_its_token(site):
    page, _game = site
    assert all(addr[0] == "127.0.0.1" for addr in page.runner.addresses)  # localhost without --lan
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(page.base_url() + "/seat/1?t=guess")
    assert e.value.code == 403
    sheriff = page.view()["state"]["sheriff"]
    action = {"seat": sheriff, "t": "guess", "action": {"a": "pass", "target": 1}}
    req = urllib.request.Request(page.base_url() + "/action", json.dumps(action).encode(),
                                 {"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req)
    assert e.value.code == 403


def test_a_deal_with_goods_not_where_it_says_is_refused_by_the_rules_with_the_reason(site):
    """Agreed by the merchant, but the stand has none of the goods it names: the referee refuses
    it with its reason and nothing moves (never announced as paid)."""
    from webpair import token_for

    page, _game = site
    before = page.view()["state"]
    sheriff = before["sheriff"]
    target = next(i for i, s in enumerate(before["seats"]) if s["declared"] and not s["resolved"])
    missing = next(g for g in ("silk", "pepper", "mead", "crossbow", "chicken", "bread", "cheese", "apple")
                   if not before["seats"][target]["stand"].get(g))
    deal = {"a": "pass", "target": target, "bribe": {"gold": 1, "stand": [missing]}}
    status, made = post_json(page, "/action", {"seat": sheriff, "t": token_for(page, sheriff), "action": deal})
    assert status == 200 and made["pending"], made
    status, answer = post_json(page, "/answer", {"seat": target, "t": token_for(page, target),
                                                 "number": made["pending"], "agree": True})
    assert answer["ok"] is False and answer["reason"] and answer["text"].startswith("refused: "), answer
    assert page.view()["state"] == before
    assert "refused by the referee" in page.view()["decided"][-1]["text"]


def test_each_merchants_phone_alone_shows_their_own_bag(site):
    """The board tells the hub (PEEK → SEEN, never forwarded) what it knows of each seat; a paired
    phone's frame carries its own bag, and no other phone's frame nor the TV's does."""
    import asyncio

    import aiohttp
    from host.screen.wording import ENGLISH
    from shared_rules.sheriff import view as sheriff_view
    from webpair import token_for

    page, game = site
    state = page.view()["state"]
    closed = [i for i, s in enumerate(state["seats"]) if s["loaded"] and not s["resolved"]]
    bags = {i: sheriff_view.referee(game.game)["seats"][i]["bag"] for i in closed}
    assert len(closed) >= 2, "the fixture's game waits for the Sheriff with every bag closed"
    seat, other = closed[0], closed[1]

    def said(who: int) -> str:
        return "In your bag: " + ENGLISH.goods(bags[who])

    async def own_lines(who: int) -> list[str]:
        """The seat's own lines once they name its bag (the hub's PEEK answered)."""
        url = "http://127.0.0.1:%d/ws?seat=%d&t=%s" % (page.port, who, token_for(page, who))
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as ws:
                for _ in range(20):
                    own = json.loads((await ws.receive(timeout=10)).data)["you"]["own"]
                    if said(who) in own:
                        return own
        return []

    mine, theirs = asyncio.run(own_lines(seat)), asyncio.run(own_lines(other))
    assert said(seat) in mine and said(other) in theirs
    if bags[seat] != bags[other]:
        assert said(seat) not in theirs and said(other) not in mine
    tv = page.fanout.current(("en", None))[1].decode()
    assert "In your bag" not in tv and "In your hand" not in tv and '"own"' not in tv


def pair_in_browser(tv, phone, page, seat: int) -> None:
    """The phone scans seat ``seat``'s code, the host confirms the phone's four digits on the TV's
    join page; the phone lands on its seat."""
    if page.pairing.paired(seat):   # another test of this board paired it: the host re-pairs
        page.pairing.unpair(seat)
    phone.get(page.pair_url(seat))
    code = wait_for(lambda: phone.find_element("id", "pair-code").text.strip(), 10, "the phone's code")
    tv.get(page.base_url() + "/join")
    from selenium.common.exceptions import StaleElementReferenceException

    def confirm() -> bool:   # the join page redraws itself every 2 s: a button may go stale
        try:
            for button in tv.find_elements("css selector", "button"):
                if button.text == "Confirm %s" % code:
                    button.click()
                    return True
        except StaleElementReferenceException:
            pass
        return False
    wait_for(confirm, 10, "the code %s on the join page: %s" % (code, tv.find_element("tag name", "body").text))
    wait_for(lambda: "/seat/%d?t=" % seat in phone.current_url, 10, "the phone on its seat")


@needs_browser
def test_two_phones_and_the_tv_pair_propose_agree_and_see_what_was_recorded(site, tmp_path):
    """The Sheriff's phone proposes a bribe; nothing moves until the merchant agrees on their own
    phone; the referee rules; both phones and the TV say what was recorded. A stranger without
    the host credential sees no seat codes and cannot pair a seat that has a phone."""
    from selenium.webdriver.support.ui import Select

    page, game = site
    state = page.view()["state"]
    sheriff = state["sheriff"]
    target = next(i for i, s in enumerate(state["seats"]) if s["declared"] and not s["resolved"])
    for path in ("/join", "/qr/%d.svg" % target):   # the codes are the host's, on the TV
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(page.base_url() + path)
        assert e.value.code == 403
    tv, sheriff_phone, merchant_phone = browser(), browser(), browser()
    try:
        tv.get(page.tv_url())
        wait_text(tv, "title", "Sheriff of Nottingham · 4 seats", 10)
        wait_text(tv, "waits", "seat %d: let the bag pass or inspect it" % sheriff, 5)
        assert "Sheriff" in tv.find_element("id", "seats").text
        wait_for(lambda: tv.find_elements("css selector", "#mat svg g.pad.waits"), 5, "the pad the mat waits at")
        shot = tv.get_screenshot_as_png()
        (tmp_path / "tv.png").write_bytes(shot)
        width, height, variety = png_variety(shot)
        assert width == 1400 and height > 500
        assert variety > 100, "the table view's screenshot looks blank"

        pair_in_browser(tv, sheriff_phone, page, sheriff)
        pair_in_browser(tv, merchant_phone, page, target)
        wait_text(sheriff_phone, "you", "You are seat %d · Sheriff" % sheriff, 10)
        wait_text(merchant_phone, "you", "You are seat %d" % target, 10)
        stranger = post_json(page, "/pair", {"seat": target, "c": page.pairing.claims[target]})
        assert stranger[0] == 403 and "already has a phone" in stranger[1]["text"]

        tv.get(page.base_url() + "/")
        wait_text(tv, "title", "Sheriff of Nottingham · 4 seats", 10)
        gold = sheriff_phone.find_element("id", "gold")
        assert gold.get_attribute("value") == ""   # amounts start empty, not 0
        Select(sheriff_phone.find_element("id", "target")).select_by_value(str(target))
        gold.send_keys("999")  # more than the merchant has
        sheriff_phone.find_element("id", "send").click()
        wait_text(sheriff_phone, "verdict", "waiting for seat %d to agree" % target, 10)
        # the form starts afresh, no merchant chosen
        assert gold.get_attribute("value") == "" and sheriff_phone.find_element("id", "target").get_attribute("value") == ""
        wait_text(tv, "tv-proposals", "waiting for seat %d to agree" % target, 5)
        assert page.view()["state"]["seats"][target]["gold"] == state["seats"][target]["gold"]   # nothing moved yet
        wait_for(lambda: merchant_phone.find_elements("css selector", "#proposals button[data-agree]"), 5,
                 "the merchant's Agree button")[0].click()
        wait_text(merchant_phone, "verdict", "refused: not enough gold", 10)
        wait_text(sheriff_phone, "decided", "refused by the referee", 5)
        wait_text(tv, "tv-proposals", "refused by the referee", 5)
        assert page.view()["state"]["seats"][target]["gold"] == state["seats"][target]["gold"]

        # withdrawn by the Sheriff before the merchant answers: nothing reaches the referee
        Select(sheriff_phone.find_element("id", "target")).select_by_value(str(target))
        gold.send_keys("2")
        sheriff_phone.find_element("id", "send").click()
        wait_for(lambda: sheriff_phone.find_elements("css selector", "#proposals button"), 5,
                 "the Sheriff's Withdraw button")[0].click()
        wait_text(merchant_phone, "decided", "withdrawn by seat %d" % sheriff, 5)
        assert page.view()["state"]["seats"][target]["gold"] == state["seats"][target]["gold"]

        Select(sheriff_phone.find_element("id", "target")).select_by_value(str(target))
        gold.send_keys("3")
        (tmp_path / "phone.png").write_bytes(sheriff_phone.get_screenshot_as_png())
        sheriff_phone.find_element("id", "send").click()
        wait_for(lambda: merchant_phone.find_elements("css selector", "#proposals button[data-agree]"), 5,
                 "the merchant's Agree button")[0].click()
        clicked = time.monotonic()
        wait_text(merchant_phone, "verdict", "accepted by the referee", 10)
        verdict_s = time.monotonic() - clicked
        recorded = "lets seat %d pass for a bribe of 3 gold" % target
        lag = wait_text(tv, "events", recorded, 5)
        wait_text(sheriff_phone, "decided", "agreed by seat %d and recorded: Sheriff seat %d %s" % (target, sheriff, recorded), 5)
        wait_text(merchant_phone, "decided", "agreed by seat %d and recorded" % target, 5)
        print("verdict on the phone %.3f s after the click; on the TV %.3f s after the verdict" % (verdict_s, lag))
        assert page.view()["state"]["seats"][target]["gold"] == state["seats"][target]["gold"] - 3

        # any other move, for a tag the mat cannot read: the Sheriff inspects the next bag
        other = next(i for i, s in enumerate(page.view()["state"]["seats"]) if s["declared"] and not s["resolved"])
        sheriff_phone.find_element("css selector", "#other summary").click()
        Select(sheriff_phone.find_element("id", "kind")).select_by_visible_text("inspect")
        sheriff_phone.find_element("id", "fields").send_keys('{"target": %d}' % other)
        sheriff_phone.find_element("id", "send-any").click()
        wait_for(lambda: page.view()["state"]["seats"][other]["resolved"], 10, "the inspection")
        wait_text(sheriff_phone, "verdict", "accepted by the referee", 5)
        wait_text(tv, "events", "Sheriff seat %d opens seat %d's bag" % (sheriff, other), 5)
    finally:
        close(tv)
        close(sheriff_phone)
        close(merchant_phone)


def post_json(page, path: str, body: dict, host: bool = False) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if host:
        headers["Cookie"] = "tapmat_host=" + page.pairing.host
    req = urllib.request.Request(page.base_url() + path, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@needs_browser
def test_players_guide_and_join_page(site):
    page, _game = site
    driver = browser()
    try:
        driver.get(page.tv_url())
        driver.get(page.base_url() + "/join")
        codes = driver.find_elements("css selector", ".qrs img")
        assert codes
        wait_for(lambda: all(driver.execute_script("return arguments[0].naturalWidth", c) > 100 for c in codes),
                 5, "QR code pictures")
        driver.get(page.base_url() + "/players")
        assert "Players' guide" in driver.find_element("tag name", "h1").text
        driver.get(page.base_url() + "/players?lang=vi")
        assert "Hướng dẫn người chơi" in driver.find_element("tag name", "h1").text
        images = driver.find_elements("css selector", "img")
        assert images and all(driver.execute_script("return arguments[0].naturalWidth", i) > 0 for i in images)
    finally:
        close(driver)


def test_the_guides_mat_drawings_are_generated_from_the_hardware_data():
    """docs/mat-layout-*.svg are what host/web/matsvg.py draws from hardware/mat_layout.json now
    (regenerate: python -m host.web.matsvg docs), and the guide shows each of them."""
    from host.web import matsvg

    docs = Path(__file__).resolve().parent.parent / "docs"
    guide = (docs / "players.md").read_text()
    for name, text in matsvg.guide_files().items():
        assert (docs / name).read_text() == text, "%s is stale: python -m host.web.matsvg docs" % name
        assert "](%s)" % name in guide
    layout = matsvg.layout("sheriff", 4)
    drawn = matsvg.guide_files()["mat-layout-sheriff.svg"]
    for zone, where in layout["zones"].items():
        readers = [where] if isinstance(where, int) else [w if isinstance(w, int) else w[0] for w in where[:4]]
        for reader in readers:
            assert 'data-reader="%d"' % reader in drawn, (zone, reader)


@needs_browser
def test_the_tv_undoes_the_newest_entry_and_says_what(tmp_path):
    """The TV (host) shows *Undo last entry* with what it takes back: a move the board takes back
    (the bag waits for the Sheriff again), then a name and a re-pairing the hub puts back; in
    Vietnamese too. Only the host may undo."""
    from webpair import post, token_for

    with sheriff_site() as (page, _game):
        state = page.view()["state"]
        sheriff = state["sheriff"]
        target = next(i for i, s in enumerate(state["seats"]) if s["declared"] and not s["resolved"])
        token = token_for(page, sheriff)
        assert post_json(page, "/undo", {})[0] == 403   # no host credential
        assert post(page, "/action", {"seat": sheriff, "t": token, "action": {"a": "pass", "target": target}})["ok"]
        assert page.view()["state"]["seats"][target]["resolved"]
        tv = browser()
        try:
            tv.get(page.tv_url())
            wait_text(tv, "undo", "Undo last entry", 10)
            wait_text(tv, "undo-what", "Undo: Sheriff seat %d lets seat %d pass" % (sheriff, target), 5)
            tv.find_element("id", "undo-button").click()
            wait_text(tv, "undo-verdict", "undone: Sheriff seat %d lets seat %d pass" % (sheriff, target), 10)
            wait_text(tv, "events", "taken back: Sheriff seat %d lets seat %d pass" % (sheriff, target), 5)
            assert not page.view()["state"]["seats"][target]["resolved"]
            wait_for(lambda: not tv.find_element("id", "undo").is_displayed(), 5, "the button gone")
        finally:
            close(tv)
        assert post(page, "/name", {"seat": 1, "name": "Bob"}, host=True)["ok"]
        assert page.view()["undo"]["text"] == "Undo: the name Bob for seat 1 (back to no name)"
        assert page.view(lang="vi")["undo"]["text"] == "Hoàn tác: tên Bob cho ghế 1 (trở lại không tên)"
        assert post(page, "/undo", {}, host=True)["text"] == "undone: the name Bob for seat 1 (back to no name)"
        assert page.view()["names"][1] == "seat 1" and page.view()["undo"] is None
        old = page.pairing.held(sheriff)
        assert post(page, "/pair/unpair", {"seat": sheriff}, host=True)["ok"] and not page.pairing.paired(sheriff)
        assert post(page, "/undo", {}, host=True)["ok"] and page.pairing.held(sheriff) == old
        status, refused = post_json(page, "/undo", {}, host=True)   # one entry, the newest: nothing now
        assert status == 409 and refused["text"] == "cannot undo: nothing to undo"
