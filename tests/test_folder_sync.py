"""One fetch for many games makes their kept messages and drafts durable with one pass of
the file system (``syncfs``) before each game's own syncs (pbem.gmfolder.sync_filesystem)."""

from __future__ import annotations

import pytest

from pbem.gmfolder import sync_filesystem


def test_the_file_system_of_a_folder_is_synced_in_one_call(tmp_path):
    (tmp_path / "kept.eml").write_bytes(b"From: a@example.org\r\n\r\nHand 1: Guard\r\n")
    assert sync_filesystem(tmp_path) is True  # Linux, as the project's machines and CI


def test_a_folder_that_does_not_exist_is_an_error_not_a_silent_pass(tmp_path):
    with pytest.raises(FileNotFoundError):
        sync_filesystem(tmp_path / "missing")
