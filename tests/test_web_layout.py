"""The TV at 1920 x 1080 and a phone at 390 x 844, in English and Vietnamese, in headless
Chromium: screenshots, and layout facts measured in the page (nothing overflows the viewport,
the newest event is above the fold, the mat's labels are at least 24 px and say what each pad
is); then a new game and a rematch from the TV, names shown everywhere, the ended game's log."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from host.web.server import Web
from test_web import SHERIFF, browser, close, needs_browser, png_variety, sheriff_site, wait_for, wait_text
from webpair import seat_url


TV, PHONE = (1920, 1080), (390, 844)

# What the page measures: elements sticking out of the viewport, the newest event's box, the mat
# labels' rendered font size (font-size times the SVG's scale) and text.
MEASURE = """
const W = innerWidth, H = innerHeight, out = [];
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY' && el.tagName !== 'DETAILS') continue;
  if (el.closest('.scroll-x') && el.closest('.scroll-x') !== el) continue;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) continue;
  if (r.right > W + 1 || r.left < -1 || (arguments[0] && r.bottom > H + 1))
    out.push(el.tagName + '#' + el.id + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right)
             + ' x ' + Math.round(r.top) + '..' + Math.round(r.bottom));
}
const first = document.querySelector('#events li');
const labels = Array.from(document.querySelectorAll('#mat svg text')).map((t) => ({
  text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a}));
return {W: W, H: H, scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight,
        out: out, newest: first ? first.getBoundingClientRect().bottom : null, newestText: first ? first.textContent : '',
        waitsPx: parseFloat(getComputedStyle(document.getElementById('waits')).fontSize), labels: labels};
"""


def viewport(driver, size: tuple[int, int], mobile: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})


def post(page: Web, path: str, body: dict, host: bool = True) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if host:
        headers["Cookie"] = "tapmat_host=" + page.pairing.host
    req = urllib.request.Request(page.base_url() + path, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def site():
    """A Sheriff game waiting for the Sheriff, with two named players, its hub and web page."""
    with sheriff_site(("Bob", "Trâm")) as (page, _game):
        yield page


@needs_browser
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_tv_fills_1080p_with_the_last_events_above_the_fold(site, lang, tmp_path):
    page = site
    driver = browser()
    try:
        viewport(driver, TV, False)
        driver.get(page.base_url() + "/?host=" + page.pairing.host)   # the TV, with the host credential
        driver.execute_script("localStorage.setItem('tapmat-lang', arguments[0])", lang)
        driver.get(page.base_url() + "/")
        title = "Sheriff of Nottingham · " + ("4 seats" if lang == "en" else "4 ghế")
        wait_text(driver, "title", title, 10)
        wait_for(lambda: driver.find_elements("css selector", "#mat svg text"), 5, "the mat drawing")
        wait_for(lambda: driver.find_elements("css selector", "#events li"), 5, "events")
        assert not driver.find_element("id", "host-panel").get_attribute("hidden")
        got = driver.execute_script(MEASURE, True)
        shot = driver.get_screenshot_as_png()
        (tmp_path / ("tv-%s.png" % lang)).write_bytes(shot)
        width, height, variety = png_variety(shot)
        assert (width, height) == TV and variety > 100
        assert (got["W"], got["H"]) == TV
        assert got["scrollW"] <= TV[0] and got["scrollH"] <= TV[1], got
        assert not got["out"], "outside the 1920 x 1080 screen: %s" % got["out"][:5]
        assert got["newest"] is not None and got["newest"] <= TV[1], "the newest event is below the fold"
        assert got["waitsPx"] >= 28
        small = [lab for lab in got["labels"] if lab["px"] < 24]
        assert not small, "mat labels under 24 px: %s" % small[:4]
        texts = " ".join(lab["text"] for lab in got["labels"])
        assert "reader" not in texts and "Bob" in texts and "Trâm" in texts
        assert ("stand" if lang == "en" else "quầy hàng") in texts
        waits = driver.find_element("id", "waits").text
        assert waits.startswith(("seat", "ghế", "Bob", "Trâm")) and ":" in waits, waits
        if lang == "vi":
            assert "Diễn biến mới nhất" in driver.find_element("tag name", "body").text
            assert "Cảnh sát trưởng" in driver.find_element("id", "seats").text
        rows = driver.find_element("id", "seats").text
        assert "Bob" in rows and "Trâm" in rows
    finally:
        close(driver)


@needs_browser
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_phone_never_scrolls_sideways(site, lang, tmp_path):
    page = site
    driver = browser()
    try:
        viewport(driver, PHONE, True)
        sheriff = page.view()["state"]["sheriff"]
        driver.get(seat_url(page, sheriff) + "&lang=" + lang)
        driver.execute_script("localStorage.setItem('tapmat-lang', arguments[0])", lang)
        driver.refresh()
        wait_text(driver, "you", "You are" if lang == "en" else "Bạn là", 10)
        wait_for(lambda: not driver.find_element("id", "decide").get_attribute("hidden"), 5, "the Sheriff's form")
        got = driver.execute_script(MEASURE, False)
        (tmp_path / ("phone-%s.png" % lang)).write_bytes(driver.get_screenshot_as_png())
        assert got["W"] == PHONE[0]
        assert got["scrollW"] <= PHONE[0], got
        assert not got["out"], "sticking out sideways: %s" % got["out"][:5]
        body = float(driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)"))
        assert body >= 16
        if lang == "vi":
            assert "Quyết định của Cảnh sát trưởng" in driver.find_element("id", "decide").text
    finally:
        close(driver)


def test_new_game_and_rematch_from_the_tv_archive_the_game_that_ended(site):
    page = site
    before = page.view()
    assert before["events"] and before["names"][:2] == ["Bob", "Trâm"]
    status, said = post(page, "/newgame", {"rematch": True}, host=False)
    assert status == 403                                   # only the host starts games
    status, said = post(page, "/newgame", {"game": "skull", "players": 4})
    assert status == 409 and said["confirm"], said          # a game is under way: confirm first
    assert page.view()["game"] == "sheriff"
    status, said = post(page, "/newgame", {"game": "skull", "players": 4, "names": ["Bob", "Trâm", "An", ""],
                                           "replace": True})
    assert status == 200 and said["ok"] and said["archived"] == 1, said
    now = page.view()
    assert now["game"] == "skull" and now["events"] == [] and now["names"] == ["Bob", "Trâm", "An", "seat 3"]
    with urllib.request.urlopen(page.base_url() + "/games/1.jsonl", timeout=10) as r:
        log = r.read().decode().splitlines()
    assert json.loads(log[0]) == SHERIFF
    assert "# seat 0: Bob" in log and "# seat 1: Trâm" in log
    moves = [json.loads(line) for line in log if not line.startswith("#")][1:]
    assert moves and moves[0]["a"] == "setup" and all("a" in m and "p" in m for m in moves)
    status, said = post(page, "/newgame", {"rematch": True})   # no move yet: no confirmation needed
    assert status == 200 and said["archived"] is None, said
    status, said = post(page, "/name", {"seat": 2, "name": "x" * 40})
    assert status == 400 and "20" in said["text"]
    status, said = post(page, "/name", {"seat": 2, "name": "Vy"})
    assert status == 200 and page.view(lang="vi")["names"][2] == "Vy"
    assert page.view(lang="vi")["waits"].startswith(("Bob", "Trâm", "Vy", "ghế")), page.view(lang="vi")["waits"]
