"""Every msgid the code and the pages use, and the catalogues brought up to date with them.

``python -m host.i18n.extract`` (run it after adding a string) reads, with Babel's extractors:

- Python under ``host/``: ``v.tr(msgid, ...)``, ``v.trn(singular, plural, n, ...)``, ``say(lang,
  msgid)``, ``say_n(lang, singular, plural, n)`` and the table markers ``N_(msgid)``,
  ``Nn_(singular, plural)``;
- ``host/web/*.js``: ``t(msgid)`` and ``tn(singular, plural, n)``;
- ``host/web/*.html``: the ``data-i18n`` attributes (an element's text) and ``data-i18n-title`` /
  ``data-i18n-placeholder``.

and merges them into ``host/i18n/en.po`` and ``vi.po`` (Babel's ``Catalog.update``: new msgids
added untranslated, gone ones dropped, translations kept). English is the source language: its
msgstr is the msgid. ``tests/test_i18n.py`` fails while any msgid lacks a translation.
"""
from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any, Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from host.i18n import FOLDER, LANGS, po_path

HOST = FOLDER.parent
PY_KEYWORDS = {"tr": (1,), "trn": (1, 2), "say": (2,), "say_n": (2, 3), "N_": (1,), "Nn_": (1, 2)}
JS_KEYWORDS = {"t": (1,), "tn": (1, 2)}
HTML_ATTRS = ("data-i18n", "data-i18n-title", "data-i18n-placeholder")


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for the pages: the msgids in ``data-i18n*`` attributes."""
    found: list[tuple[int, str, str, list[str]]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            for name, value in attrs:
                if name in HTML_ATTRS and value:
                    found.append((self.getpos()[0], "", value, []))

    Parser().feed(fileobj.read().decode("utf-8"))
    yield from found


def used() -> dict[Any, list[str]]:
    """msgid (a (singular, plural) tuple for a plural) -> where it is used."""
    out: dict[Any, list[str]] = {}
    maps: list[tuple[str, list[tuple[str, Any]], dict[str, Any]]] = [
        ("python", [("screen/**.py", "python"), ("web/**.py", "python"), ("hub/**.py", "python")], PY_KEYWORDS),
        ("javascript", [("web/**.js", "javascript")], JS_KEYWORDS),
        ("html", [("web/**.html", extract_html)], {}),
    ]
    for _name, method_map, keywords in maps:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                str(HOST), method_map=method_map, keywords=keywords):
            if filename.startswith("i18n/"):
                continue
            key = message if isinstance(message, str) else tuple(message)
            if not key or (isinstance(key, tuple) and not all(key)):
                continue
            out.setdefault(key, []).append("host/%s:%d" % (filename, lineno))
    return out


def template() -> Catalog:
    cat = Catalog(project="tapmat", charset="utf-8")
    for msgid, places in sorted(used().items(), key=lambda kv: str(kv[0])):
        cat.add(msgid, locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places[:3]])
    return cat


def update() -> dict[str, int]:
    """Merge the msgids in use into every catalogue; returns how many each still lacks."""
    missing = {}
    for lang in LANGS:
        pot = template()   # one per catalogue: update() shares the template's messages
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
        else:
            cat = Catalog(locale=lang, project="tapmat", charset="utf-8")
        cat.update(pot, no_fuzzy_matching=True)
        for m in cat:
            if not m.id:
                continue
            if lang == "en" and not translated(m):
                m.string = m.id if isinstance(m.id, str) else tuple(m.id)
            if m.fuzzy and lang == "en":
                m.flags.discard("fuzzy")
        cat.obsolete.clear()
        with path.open("wb") as f:
            write_po(f, cat, width=100, omit_header=False, sort_output=True)
        missing[lang] = sum(1 for m in cat if m.id and not translated(m))
    return missing


def translated(m: Any) -> bool:
    """Whether a catalogue message has its translation (every plural form of a plural)."""
    return bool(all(m.string) if isinstance(m.id, tuple) else m.string)


def main() -> int:
    for lang, n in update().items():
        print("%s: %d msgids without a translation" % (po_path(lang).relative_to(HOST.parent), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
