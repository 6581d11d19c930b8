"""The value types at the bottom of grn: commands, spans, records, diagnostics, shipped data. No rules, no I/O of games."""
