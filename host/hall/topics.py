"""The hall's MQTT vocabulary: table names, topic names and broker addresses, checked once here.

Every table owns ``tapmat/tables/NAME/``: ``state`` (retained: the whole public picture, so a
late subscriber sees every table at once), ``events`` (one message per mat event, numbered from
1, QoS 1) and ``online`` (retained ``1``; the broker publishes the table's last will ``0`` when
its hub vanishes). The broker's ACL lets a table's account write under its own name only.
"""
from __future__ import annotations

import re

ROOT = "tapmat/tables"
KINDS = ("state", "events", "online")
HALL_USER = "_hall"   # the hall's read-only account: no table name starts with "_"
MQTT_PORT = 1883
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}\Z")


def table_name(text: str) -> str:
    """``text`` if it can name a table (a topic level and a broker account), else ``ValueError``."""
    if not _NAME.match(text or ""):
        raise ValueError("%r cannot name a table: use 1-32 letters, digits, '-' or '_', starting "
                         "with a letter or digit" % (text,))
    return text


def topic(name: str, kind: str) -> str:
    assert kind in KINDS
    return "%s/%s/%s" % (ROOT, name, kind)


def parse(topic_name: str) -> tuple[str, str] | None:
    """``(table, kind)`` of one of the hall's topics, None for anything else."""
    parts = topic_name.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or parts[3] not in KINDS:
        return None
    return (parts[2], parts[3]) if _NAME.match(parts[2]) else None


def address(text: str, default_port: int = MQTT_PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` as ``(host, port)``; ``ValueError`` saying what is wrong."""
    host, sep, port = (text or "").strip().rpartition(":")
    if not sep:
        host, port = port, str(default_port)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]   # [::1]:1883
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("%r is no broker address: give HOST or HOST:PORT (port 1-65535)" % (text,))
    return host, int(port)
