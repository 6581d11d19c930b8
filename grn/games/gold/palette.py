"""The colours of Gold's cards and table."""

CARD_BACK = "#3b2a4f"
CARD_BACK_LINE = "#c9a43b"
CARD_BACK_PATTERN = "#54406b"
CARD_FACE = "#fbf6ea"
CARD_GONE = "#d8ccb2"
DYNAMITE = "#c0392b"
TABLE = "#2f5d3a"
TABLE_LINE = "#24482d"
GOLD_LINE = "#8a6508"  # the outline of a gold nugget, as on the Gold Rush tiles
