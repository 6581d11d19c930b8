"""Judging moves: the analysis of a record, its annotations, the review read back, the aids, the luck of the draw."""
