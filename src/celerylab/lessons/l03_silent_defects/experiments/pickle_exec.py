"""Loading a pickle runs code its producer chose: an object whose __reduce__ says "call exec with this text"."""
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path


class Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):  # "to rebuild me, call exec with this text": the text writes a file
        return (exec, (f"open({str(self.marker)!r}, 'w').write('code ran while loading')",))


@dataclass
class PickleExec:
    exec_in_bytes: bool  # the word exec is in the pickled bytes
    file_before: bool    # the file existed before pickle.loads
    file_after: bool
    file_text: str


def pickle_exec() -> PickleExec:
    marker = Path(tempfile.mkdtemp()) / "ran.txt"
    blob = pickle.dumps(Payload(marker))
    before = marker.exists()
    pickle.loads(blob)
    return PickleExec(b"exec" in blob, before, marker.exists(), marker.read_text())
