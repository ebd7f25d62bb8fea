"""The hall's Mosquitto: its configuration, the tables' accounts, and a local broker process.

``tapmat hall`` writes, in one folder: ``mosquitto.conf`` (an MQTT listener and a WebSockets
listener, persistence so a restart keeps the hall's queued events, no anonymous clients),
``passwd`` (hashed by ``mosquitto_passwd``), ``acl`` (a table writes under its own name only,
the hall reads everything, nobody else anything) and ``secrets/NAME``, each account's password
for the table's laptop (``tapmat serve --mqtt-secret``). Passwords already there are kept, so
tables keep working when the hall is restarted.
"""
from __future__ import annotations

import getpass
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from host.hall import topics

MOSQUITTO = "mosquitto"   # the Debian package and its binary (in /usr/sbin)
START_S = 10.0


def mosquitto() -> str | None:
    """The Mosquitto binary, or None if the package is not installed."""
    return shutil.which(MOSQUITTO) or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)


def secret_path(folder: Path, user: str) -> Path:
    return folder / "secrets" / user


def read_secret(path: Path) -> str:
    """A password file's password; ``ValueError`` saying which file is wrong."""
    try:
        text = path.read_text().strip()
    except OSError as e:
        raise ValueError("cannot read the broker password %s: %s" % (path, e.strerror or e)) from None
    if not text or "\n" in text:
        raise ValueError("%s holds no password (one line)" % path)
    return text


def accounts(folder: Path, tables: list[str]) -> dict[str, str]:
    """User -> password for the hall and every table (existing secrets kept, new ones drawn)."""
    out = {}
    (folder / "secrets").mkdir(parents=True, exist_ok=True, mode=0o700)
    for user in [topics.HALL_USER] + [topics.table_name(t) for t in tables]:
        path = secret_path(folder, user)
        if not path.exists():
            path.touch(mode=0o600)
            path.write_text(secrets.token_urlsafe(18) + "\n")
        out[user] = read_secret(path)
    return out


def acl(tables: list[str]) -> str:
    lines = ["# written by tapmat hall: the hall reads every table, a table writes its own topics only",
             "user %s" % topics.HALL_USER, "topic read %s/#" % topics.ROOT, ""]
    for name in tables:
        lines += ["user %s" % name, "topic write %s/%s/#" % (topics.ROOT, name), ""]
    return "\n".join(lines)


def config(folder: Path, mqtt_port: int, ws_port: int, bind: str) -> str:
    return "\n".join([
        "# written by tapmat hall (docs/hall.md)",
        "per_listener_settings false",
        "allow_anonymous false",
        "password_file %s" % (folder / "passwd"),
        "acl_file %s" % (folder / "acl"),
        "persistence true",
        "persistence_location %s/" % (folder / "data"),
        "autosave_interval 5",
        "max_queued_messages 100000",   # a hall away for a while gets every table's events
        "persistent_client_expiration 2d",   # ... but one gone for good is forgotten
        "max_inflight_messages 100",
        "set_tcp_nodelay true",          # an event is one small packet: do not hold it back
        "user %s" % getpass.getuser(),    # when started as root, stay the owner of these files
        "listener %d %s" % (mqtt_port, bind),
        "protocol mqtt",
        "listener %d %s" % (ws_port, bind),
        "protocol websockets",
        "",
    ])


def write(folder: Path, tables: list[str], mqtt_port: int = topics.MQTT_PORT, ws_port: int = 9001,
          bind: str = "127.0.0.1") -> Path:
    """Write the broker's files for ``tables`` into ``folder``; the configuration's path.
    ``ValueError`` for a bad table name, ``OSError`` if ``mosquitto_passwd`` is missing or fails."""
    folder = folder.resolve()
    names = sorted(set(topics.table_name(t) for t in tables))
    users = accounts(folder, names)
    (folder / "data").mkdir(exist_ok=True)
    passwd = folder / "passwd"
    passwd.touch(mode=0o600)
    passwd.write_text("".join("%s:%s\n" % kv for kv in users.items()))
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    try:
        subprocess.run([tool, "-U", str(passwd)], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        passwd.unlink()   # never leave the plain passwords in a file the broker reads
        raise OSError("mosquitto_passwd could not hash the passwords (%s): install the Debian "
                      "package mosquitto" % e) from None
    (folder / "acl").write_text(acl(names))
    conf = folder / "mosquitto.conf"
    conf.write_text(config(folder, mqtt_port, ws_port, bind))
    return conf


def write_amqtt(folder: Path, tables: list[str], mqtt_port: int, bind: str = "127.0.0.1") -> Path:
    """The same accounts and ACL for amqtt, the Python broker used where Mosquitto is missing
    (tests, a trial hall): ``amqtt.yaml``, a passlib-hashed ``amqtt.passwd``. Its configuration's
    path. amqtt keeps no session across its own restart and answers a bad password by closing,
    not by a CONNACK refusal: Mosquitto is the broker for a real hall."""
    from passlib.hash import sha512_crypt  # type: ignore[import-untyped]

    hashed = sha512_crypt.using(rounds=5000)   # glibc's default; passlib's 656 000 take seconds a user

    folder = folder.resolve()
    names = sorted(set(topics.table_name(t) for t in tables))
    users = accounts(folder, names)
    passwd = folder / "amqtt.passwd"
    passwd.touch(mode=0o600)
    passwd.write_text("".join("%s:%s\n" % (user, hashed.hash(pw)) for user, pw in users.items()))
    publish = {name: ["%s/%s/#" % (topics.ROOT, name)] for name in names}
    subscribe = {topics.HALL_USER: ["%s/#" % topics.ROOT]}
    conf = folder / "amqtt.yaml"
    conf.write_text(json.dumps({   # YAML takes JSON as it is
        "listeners": {"default": {"type": "tcp", "bind": "%s:%d" % (bind, mqtt_port)}},
        "plugins": {"amqtt.plugins.authentication.FileAuthPlugin": {"password_file": str(passwd)},
                    "amqtt.plugins.topic_checking.TopicAccessControlListPlugin": {
                        "publish_acl": dict(publish, **{topics.HALL_USER: []}),
                        "acl": dict(subscribe, **{name: [] for name in names})}},
    }, indent=1))
    return conf


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class Broker:
    """A Mosquitto process of ours on ``conf``: ``start()``, ``stop()``."""

    NAME = "Mosquitto"

    def __init__(self, conf: Path, port: int, log: Path | None = None) -> None:
        self.conf = conf
        self.port = port
        self.log = log or conf.with_name("mosquitto.log")
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        binary = mosquitto()
        if binary is None:
            raise OSError("no Mosquitto: install the Debian package mosquitto (apt-get install mosquitto)")
        return [binary, "-c", str(self.conf)]

    def start(self) -> "Broker":
        command = self.command()
        if listening(self.port):
            raise OSError("port %d is taken already: another broker? give --mqtt HOST:PORT" % self.port)
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        end = time.monotonic() + START_S
        while not listening(self.port):
            if self.proc.poll() is not None or time.monotonic() > end:
                self.stop()
                raise OSError("%s did not start: see %s" % (self.NAME, self.log))
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Terminate (Mosquitto saves its persistence file) and reap the process."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


class Amqtt(Broker):
    """An amqtt process on ``write_amqtt``'s configuration: the fallback where Mosquitto is missing."""

    NAME = "amqtt"

    def command(self) -> list[str]:
        return [sys.executable, "-c", "from amqtt.scripts.broker_script import main; main()", "-c", str(self.conf)]
