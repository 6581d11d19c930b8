"""grn: record, check and draw games of the Gold Rush family.

The public API follows python-chess: :func:`read` yields the games of a GRN
file one by one, each a :class:`grn.record.Record` with its tags, its tree of
turns and the engine commands they hold.
"""

__version__ = "0.1.0"
