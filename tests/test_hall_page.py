"""The hall page in headless Chromium (Debian's chromium and chromium-driver, as tests/test_web.py):
the tables' cards, the click-through to a table's TV, whose turn, the standings, live updates."""
from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Iterator

import pytest

from host.hall import topics
from host.hall.server import HallPage
from host.hall.simtable import SimTable
from host.hall.tables import Tables
from host.web.fanout import TV
from host.web.server import Web
from test_web import browser, close, needs_browser, wait_for

pytestmark = [pytest.mark.timeout(120), needs_browser]


def state_message(table: SimTable, name: str, n: int) -> bytes:
    frame = Web(table).fanout.current(TV)[1]   # type: ignore[arg-type]
    head = json.dumps({"table": name, "run": "r", "n": n, "url": "http://192.0.2.7:8765/"})
    return head[:-1].encode() + b',"view":' + frame + b"}"


@pytest.fixture
def hall() -> Iterator[tuple[HallPage, asyncio.AbstractEventLoop]]:
    """A hall page served by a loop in its own thread (updates go to it through that loop)."""
    page = HallPage(Tables(), port=0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="hall", daemon=True)
    thread.start()
    try:
        asyncio.run_coroutine_threadsafe(page.start(), loop).result(10)
        yield page, loop
    finally:
        asyncio.run_coroutine_threadsafe(page.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def feed(page: HallPage, loop: asyncio.AbstractEventLoop, topic: str, payload: bytes) -> None:
    async def apply() -> None:
        update: Any = page.tables.apply(topic, payload)
        if update is not None:
            page.update(update)
    asyncio.run_coroutine_threadsafe(apply(), loop).result(10)


def test_the_hall_page_shows_every_table_and_follows_them(hall):
    page, loop = hall
    playing = SimTable({"game": "skull", "players": 3}, 4)
    playing.step()
    done = SimTable({"game": "deadmans", "players": 3}, 5)
    while done.step():
        pass
    feed(page, loop, topics.topic("t1", "state"), state_message(playing, "t1", 1))
    feed(page, loop, topics.topic("t1", "online"), b"1")
    feed(page, loop, topics.topic("t2", "state"), state_message(done, "t2", 99))
    driver = browser()
    try:
        driver.get("http://127.0.0.1:%d/" % page.port)
        wait_for(lambda: "live" in driver.find_element("id", "link").text, 20, "live page")
        wait_for(lambda: len(driver.find_elements("css selector", "#tables article")) == 2, 20, "two tables")
        t1 = driver.find_element("id", "table-t1")
        assert "t1 · Skull" in t1.find_element("tag name", "h2").text
        assert t1.find_element("tag name", "a").get_attribute("href") == "http://192.0.2.7:8765/"
        assert len(t1.find_elements("css selector", "tr")) == 1 + 3   # header and three seats
        assert "turn" in t1.find_element("class name", "waits").text
        assert "game over" in driver.find_element("id", "table-t2").text
        standings = driver.find_elements("css selector", "#standings tbody tr")
        assert len(standings) == 3 and all("t2 seat" in r.text for r in standings)
        # live: an event, then the table's hub goes away
        feed(page, loop, topics.topic("t1", "events"),
             json.dumps({"n": 2, "run": "r", "kind": "accepted", "text": "seat 1 bids 2"}).encode())
        wait_for(lambda: "seat 1 bids 2" in driver.find_element("id", "table-t1").text, 20, "the event")
        feed(page, loop, topics.topic("t1", "online"), b"0")
        wait_for(lambda: "off" in (driver.find_element("id", "table-t1").get_attribute("class") or ""), 20,
                 "t1 offline")
        assert "(offline)" in driver.find_element("id", "table-t1").text
    finally:
        close(driver)
