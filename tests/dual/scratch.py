"""Where dual tests put scratch files: under the folder this test run made (``TAPMAT_TMP``, set by
tests/conftest.py), so runs from several checkouts at once never share a file; /tmp by hand."""
import os

TMP = os.getenv("TAPMAT_TMP") or "/tmp"
