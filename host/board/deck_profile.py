"""Deck profile files on the host: the shipped sample, and reading a profile (JSON or the binary
``profile.bin``) with errors that name the file, its line or its field.

A deck profile holds the Merry Men expansion's card data that is not public; the owner of a copy
fills it in from their cards. ``host/profiles/sample.json`` holds placeholder values, never the
printed ones (docs/rules-merry-men.md).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shared_rules.sheriff.modules import profile

SAMPLE = Path(__file__).resolve().parents[1] / "profiles" / "sample.json"


def load(path: Path) -> dict[str, Any]:
    """A checked profile from a JSON file or a binary ``profile.bin``; ``ValueError`` naming the
    file (and the line for JSON syntax, the field for content)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from None
    if data[:4] == profile.MAGIC:
        return profile.decode(data, str(path))
    try:
        obj = json.loads(data)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
    except UnicodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    return profile.check(obj, str(path))
