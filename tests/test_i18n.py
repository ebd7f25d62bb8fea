"""Every string the views use exists in English and Vietnamese (host/i18n/*.po, read by Babel)."""
from __future__ import annotations

from host import i18n
from host.i18n import extract


def test_every_msgid_in_use_has_a_translation_in_both_catalogues() -> None:
    used = extract.used()
    assert len(used) > 300, "the extractor found almost nothing: %d msgids" % len(used)
    for lang in i18n.LANGS:
        cat = i18n.read(lang)
        missing = []
        for msgid, places in used.items():
            m = cat.get(msgid[0] if isinstance(msgid, tuple) else msgid)
            done = m is not None and (all(m.string) if isinstance(m.string, (tuple, list)) else bool(m.string))
            if not done or m.fuzzy:
                missing.append("%r (%s)" % (msgid, places[0]))
        assert not missing, "%s.po lacks %d: %s\n(run python -m host.i18n.extract, then translate)" % (
            lang, len(missing), "\n".join(missing[:20]))


def test_placeholders_survive_translation() -> None:
    """A translation keeps every {placeholder} of its msgid, or a sentence would lose a name."""
    import re
    field = re.compile(r"\{(\w+)")
    for m in i18n.read("vi"):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        wanted = set(field.findall(ids[0])) - {"n"} if len(ids) > 1 else set(field.findall(ids[0]))
        for text in strings:
            assert wanted <= set(field.findall(text)), (m.id, text)


def test_the_language_a_browser_asks_for() -> None:
    assert i18n.choose("vi-VN,vi;q=0.9,en-US;q=0.8") == "vi"
    assert i18n.choose("en-GB,en;q=0.9") == "en"
    assert i18n.choose("de-DE,fr;q=0.5") == "en"
    assert i18n.choose("fr;q=0.9, vi;q=0.5") == "vi"
    assert i18n.choose("") == "en" and i18n.choose("q=;;,") == "en"
    assert i18n.say("vi", "seat {n}", n=2) == "ghế 2" and i18n.say("xx", "seat {n}", n=2) == "seat 2"
    cat = i18n.catalogue("vi")
    assert cat["lang"] == "vi" and cat["messages"]["Last events"] == "Diễn biến mới nhất"
