"""The host <-> board link's wire format (COBS, CRC, frames): the one codec both ends import."""
