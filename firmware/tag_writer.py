"""Writing NTAG21x tags through an MFRC522 (``tapmat tags write`` runs it on the board,
host/board/tags.py): the driver of ``firmware.mfrc522`` plus SELECT by a known UID and WRITE.
The referee only reads tags, so a board in play never loads this.

A tag whose UID is known is selected directly with SELECT CL1/CL2 (no anticollision), then
WRITE programs one page. Only user memory is written unless the caller asks for system pages;
the limit comes from the tag's capability container. An answer that is lost or garbled never
counts as success: the page is read back and compared, and written again when it differs (a
WRITE of the same data is idempotent). Sources: firmware/mfrc522.py's.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from firmware.mfrc522 import Mfrc522

# The driver's status codes and limits (restated: its underscore constants are compiled away on
# MicroPython; tests/test_rules_literals.py checks they agree).
_OK = const(0)
_NO_TAG = const(1)
_TIMEOUT = const(2)
_PROTOCOL_ERR = const(5)
_NAK = const(7)
_CHIP_ERR = const(8)
_DENIED = const(10)
_UID_LEN = const(7)
_PAGE_BYTES = const(16)
_FIRST_USER_PAGE = const(4)
_MAX_ERRORS = const(4)
# NTAG WRITE (NTAG213/215/216 data sheet §10.4, §9.3, §8.5.4).
_T_WRITE = const(404)  # 10.1 ms: NTAG WRITE answers within 10 ms (§10.4, WRITE timing)
_WRITE = const(0xA2)
_ACK = const(0x0A)
_NAK_CRC = const(0x1)
_NAK_CODES = const(0x0033)  # bit n set: n is an NTAG NAK code (0h, 1h, 4h, 5h; §9.3)
_CC_MAGIC = const(0xE1)     # CC byte 0: NDEF data present (NFC Forum Type 2 Tag)


class TagWriter(Mfrc522):
    """An MFRC522 driver that also writes tags."""

    cc = bytearray(_PAGE_BYTES)  # the capability container's READ (shared, as the driver's buffers)

    @classmethod
    def of(cls, reader):
        """A writer on the chip of ``reader`` (its bus, chip select and gain): call ``init()``."""
        return cls(reader._spi, reader._cs, reader.gain)

    def select_uid(self, uid, off=0):
        """Select the NTAG whose 7-byte UID is uid[off:off+7] among the tags in the field.

        WUPA wakes IDLE and HALT tags; SELECT CL1 (88h + UID0..2) and CL2 (UID3..6) with the
        known UID need no anticollision, since only the tag owning UID CLn answers a SELECT
        (ISO/IEC 14443-3 §6.5.3.4). OK (the tag is ACTIVE), NO_TAG (no tag with that UID
        answered), or the error of the last of at most 5 rounds.
        """
        if len(uid) < off + _UID_LEN or off < 0:
            raise ValueError("7 bytes of UID expected in uid[off:]")
        Mfrc522.user_last = 0
        Mfrc522.uid_len = 0
        st = _NO_TAG  # outcome of the last round that woke something
        quiet = 0
        for _ in range(5):
            wake = self.request(True)
            if wake == _NO_TAG:
                quiet += 1
                if quiet == 3:
                    return _NO_TAG  # three WUPAs in a row unanswered: nothing in the field
                # a READY or ACTIVE tag takes WUPA as an error (now it is IDLE), and a lost
                # ATQA leaves it READY: either way the next WUPA or the one after wakes it
                continue
            quiet = 0
            st = wake
            if st == _OK:
                st = self._select_part(uid, off, 0)
            if st == _OK:
                st = self._select_part(uid, off, 1)
            if st == _OK:
                for i in range(_UID_LEN):
                    self.uid[i] = uid[off + i]
                Mfrc522.uid_len = _UID_LEN
                return _OK
            if st == _CHIP_ERR:
                return st
        return _NO_TAG if st == _TIMEOUT else st

    def write(self, page, data, off=0, system=False):
        """NTAG WRITE (A2h, §10.4) of data[off:off+4] into `page` of the selected NTAG.

        Without `system` only user memory is written: pages 4 .. .user_last, learned from the
        capability container (one READ of page 3 after each selection); any other page gives
        DENIED and no WRITE is sent. system=True passes every page to the tag, which NAKs what
        it does not allow; lock bytes (page 2, dynamic lock page) and CC are one-time
        programmable and take the OR of old and new bits (§8.5.2-8.5.4).

        OK means the tag acknowledged (4-bit ACK Ah) or, when its answer was lost or garbled,
        that a READ of the page returned exactly the data. Otherwise the page is written again
        (WRITE is idempotent), after waking and selecting the tag again by its UID when it may
        have left ACTIVE (a NAK 1h for a corrupted frame, no clean READ answer); at most
        1 + MAX_ERRORS attempts, failures counted in .errors. A NAK 0h (page locked or
        protected), 4h or 5h ends at once: NAK, the code in .last_nak. NO_TAG when the tag
        has left the field.
        """
        if len(data) < off + 4 or off < 0 or not 0 <= page <= 0xFF:
            raise ValueError("page 0..255 and 4 bytes in data[off:] expected")
        self.errors = 0
        if self.uid_len != _UID_LEN:
            return _NO_TAG  # no NTAG selected
        st = _OK
        active = True
        for _ in range(_MAX_ERRORS + 1):
            if not active:
                last = self.user_last  # the same tag: its user memory is known
                st = self.select_uid(self.uid)
                Mfrc522.user_last = last
                if st == _NO_TAG or st == _CHIP_ERR:
                    return st
                active = st == _OK
            p = self.cc
            if active and not system:
                if not self.user_last:
                    # .user_last from the CC (page 3): byte 2 is the NDEF data area in 8-byte
                    # units. NTAG215/216 announce less than they have (3Eh = 496 of 504 bytes,
                    # 6Dh = 872 of 888; §8.5.4), so their CC values map to their real last user
                    # pages 81h and E1h; NTAG213's 12h (144 bytes) ends at 27h; another Type 2
                    # tag gets the area its CC announces.
                    st = self.read(3, p)
                    if st == _OK and p[0] != _CC_MAGIC:
                        return _DENIED  # not NDEF formatted: the user memory is unknown
                    if st == _OK:
                        size = p[2]
                        if size == 0x3E:
                            Mfrc522.user_last = 0x81
                        elif size == 0x6D:
                            Mfrc522.user_last = 0xE1
                        else:
                            Mfrc522.user_last = min(3 + 2 * size, 0xFF)
                        if self.user_last < _FIRST_USER_PAGE:
                            return _DENIED
                    active = st == _OK
                if active and not _FIRST_USER_PAGE <= page <= self.user_last:
                    return _DENIED
            if active:
                # one WRITE exchange: OK on ACK, NAK (code in .last_nak), or the transfer error
                f = self.ftx
                f[1] = _WRITE
                f[2] = page
                for i in range(4):
                    f[3 + i] = data[off + i]
                st = self._transceive(self._append_crc(6), 0, 0, _T_WRITE)
                if st == _OK:
                    code = self.resp[0] & 0x0F
                    if self.rx_n != 1 or self.rx_last != 4:  # ACK and NAK: 4-bit frames
                        st = _PROTOCOL_ERR
                    elif code == _ACK:
                        return _OK
                    elif (_NAK_CODES >> code) & 1:
                        Mfrc522.last_nak = code
                        st = _NAK
                    else:
                        st = _PROTOCOL_ERR  # neither ACK nor a NAK: a garbled answer
                if st == _CHIP_ERR or (st == _NAK and self.last_nak != _NAK_CRC):
                    return st
                active = False
                if st != _NAK:  # no clean answer: the tag may have programmed the page anyway
                    active = self.read(page, p) == _OK  # answered: still ACTIVE
                    if active and p[0] == data[off] and p[1] == data[off + 1] \
                            and p[2] == data[off + 2] and p[3] == data[off + 3]:
                        self.errors += 1
                        return _OK  # only the answer was lost
            self.errors += 1
        return st

    # --- roll call -----------------------------------------------------------------------
