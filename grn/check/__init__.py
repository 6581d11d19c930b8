"""Replaying records against the rules (the validator), in this process, a pool of workers or a Dask cluster."""
