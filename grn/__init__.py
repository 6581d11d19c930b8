"""grn: record, check and draw games of the Gold Rush family.

The public API follows python-chess: :func:`read` yields the games of a GRN
file one by one, each a :class:`grn.record.Record` with its tags, its tree of
turns and the engine commands they hold.
"""

__version__ = "0.1.0"

from grn.notation import parse, read, read_game  # noqa: E402
from grn.record import Record, Turn  # noqa: E402
from grn.writer import write_record, write_records  # noqa: E402

__all__ = ["read", "read_game", "parse", "write_record", "write_records", "Record", "Turn"]
