"""The committed reply corpus is exactly what its generator writes.

The corpus files are data that tests trust; a hand edit to one .eml (or to
expected.yaml) that the generator does not know about would be lost the next
time someone rebuilds the corpus, or would silently change what is tested.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
GENERATED = {"make_corpus.py", "campaign.yaml", "codes.yaml"}  # inputs, not outputs


def test_regenerating_the_corpus_gives_the_committed_files(tmp_path):
    subprocess.run(
        [sys.executable, str(CORPUS / "make_corpus.py"), str(tmp_path)], check=True, capture_output=True
    )
    made = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_bytes() for p in CORPUS.iterdir() if p.is_file() and p.name not in GENERATED}
    assert sorted(made) == sorted(committed)
    differing = [name for name in made if made[name] != committed[name]]
    assert not differing, f"regenerated corpus files differ from the committed ones: {differing}"
