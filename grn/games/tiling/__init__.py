"""The tile-laying base the tile games subclass: places, tiles, the board, its commands, events and engine."""
