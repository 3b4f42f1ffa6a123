"""Lazy registration with a Dask imported before gpunp.

Dask looks a chunk type's functions up in dispatch tables keyed by type,
and where a type is missing, by its top-level module name ("gpunp") in the
table's lazy entries, which run once. Where Dask (or dask.distributed) is
already imported when gpunp is, ``install`` leaves such an entry in each
table gpunp fills, pointing at ``gpunp.dask.register``: a worker process,
which imports distributed before the first task brings gpunp in, can then
read gpunp's frames before it has made a gpunp array itself. Nothing here
imports Dask.
"""

import sys

# (module, its dispatch tables that gpunp.dask.register fills)
_TABLES = (
    ("dask.sizeof", ("sizeof",)),
    ("dask.array.dispatch", ("concatenate_lookup", "take_lookup", "tensordot_lookup",
                             "einsum_lookup", "empty_lookup", "divide_lookup",
                             "percentile_lookup", "numel_lookup", "nannumel_lookup",
                             "to_numpy_dispatch", "to_cupy_dispatch")),
    ("distributed.protocol.serialize", ("dask_serialize", "dask_deserialize")),
    ("distributed.protocol.cuda", ("cuda_serialize", "cuda_deserialize")),
)


def _register():
    from gpunp.dask import register

    register()


def install() -> None:
    for module, names in _TABLES:
        m = sys.modules.get(module)
        for name in names:
            table = getattr(m, name, None)
            if table is not None:
                table.register_lazy("gpunp", _register)
