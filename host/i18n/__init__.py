"""The players' language: Vietnamese and English words for every view (gettext catalogues, Babel).

The catalogues are ``host/i18n/<lang>.po`` (msgid: the English source text, python-brace
placeholders such as ``{name}``). Babel reads them at run time and compiles them in memory, so
there is no build step and no ``.mo`` file to forget; lookups go through the standard library's
``gettext`` (plural forms included). ``tests/test_i18n.py`` fails when a msgid used in the code or
the pages lacks a translation in either catalogue.

- ``say(lang, msgid, **values)``, ``say_n(lang, singular, plural, n, **values)``: one string
  (code speaking to players goes through a ``Voice``, ``host/screen/wording.py``: ``v.tr(...)``);
- ``N_(msgid)``, ``Nn_(singular, plural)``: a msgid kept in a table, translated where it is shown
  (the extractor, ``python -m host.i18n.extract``, finds these markers and ``tr``/``trn``/``t``);
- ``catalogue(lang)``: every msgid and its translation, for the web pages (``/i18n/<lang>.json``);
- ``choose(accept_language)``: the language a browser asks for, of those there are.
"""
from __future__ import annotations

import functools
import io
import os
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGS = ("en", "vi")
DEFAULT = "en"
FOLDER = Path(__file__).resolve().parent


def po_path(lang: str) -> Path:
    return FOLDER / ("%s.po" % lang)


@functools.lru_cache(maxsize=None)
def read(lang: str) -> Any:
    """The Babel catalogue of ``lang`` (``ValueError`` for a language there is none of)."""
    if lang not in LANGS:
        raise ValueError("no catalogue for %r: the languages are %s" % (lang, ", ".join(LANGS)))
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> Translations:
    out = io.BytesIO()
    write_mo(out, read(lang))
    out.seek(0)
    return Translations(out)


def language(lang: str | None) -> str:
    """``lang`` if there is a catalogue of it, else the default (a stray ``?lang=`` never fails)."""
    return lang if lang in LANGS else DEFAULT


def N_(msgid: str) -> str:
    """Marks a msgid in a table (translated where it is said)."""
    return msgid


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a msgid with its plural in a table."""
    return singular, plural


def say(lang: str | None, msgid: str, **values: Any) -> str:
    text = translations(language(lang)).gettext(msgid)
    return text.format(**values) if values else text


def say_n(lang: str | None, singular: str, plural: str, n: int, **values: Any) -> str:
    """``say_n(lang, "{n} card", "{n} cards", 3)``: the form for ``n`` (Vietnamese has one)."""
    return translations(language(lang)).ngettext(singular, plural, n).format(n=n, **values)


def catalogue(lang: str | None) -> dict[str, Any]:
    """msgid -> translation (a list of forms for a plural), with the plural rule's form count."""
    cat = read(language(lang))
    messages: dict[str, Any] = {}
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            messages[m.id[0]] = list(m.string) if all(m.string) else list(m.id)
        else:
            messages[m.id] = m.string or m.id
    return {"lang": language(lang), "plural_forms": cat.num_plurals, "messages": messages}


def from_environment() -> str:
    """The terminal's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(key, "")
        if value:
            return choose(value.split(".")[0].replace("_", "-").replace(":", ","))
    return DEFAULT


def choose(accept_language: str | None) -> str:
    """The best of ``LANGS`` for an Accept-Language header (``vi-VN,vi;q=0.9,en;q=0.8``)."""
    asked: list[tuple[float, str]] = []
    for part in (accept_language or "").split(","):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if tag and tag != "*":
            asked.append((weight, tag.replace("-", "_")))
    preferred = [tag for _w, tag in sorted(asked, key=lambda x: -x[0])]
    try:
        found = Locale.negotiate(preferred, list(LANGS))
    except (UnknownLocaleError, ValueError):
        found = None
    return found.language if found is not None else DEFAULT
