"""The game archive: many games in one SQLite file, validated, indexed and searchable.

* :mod:`grn.archive.db` -- the schema, opening an archive, adding record files
* :mod:`grn.archive.facts` -- what is indexed of one game (generic: no game is named here)
* :mod:`grn.archive.search` -- search filters as SQL
* :mod:`grn.archive.stats` -- statistics and SVG charts
* :mod:`grn.archive.dedup` -- the same game archived twice: finding and merging
* :mod:`grn.archive.export` -- GRN, JSON and Parquet exports
* :mod:`grn.archive.indexer` -- the index rows of each game, worked out where :mod:`grn.check.batch` validates it
* :mod:`grn.archive.cli` -- the ``grn archive`` commands

``docs/archive.md`` describes the commands, the tables and the query syntax.
"""
