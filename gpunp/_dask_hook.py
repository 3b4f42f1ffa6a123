"""gpunp's registrations with Dask, made lazily whatever the import order.

Dask looks a chunk type's functions up in dispatch tables keyed by type,
and where a type is missing, by its top-level module name ("gpunp") in the
table's lazy entries, which run once. ``install`` (run by ``import gpunp``)
leaves such an entry, pointing at ``gpunp.dask.register``, in each table
gpunp fills: at once in the modules of Dask already imported, and in the
others right after Python imports them (a finder on ``sys.meta_path`` that
answers for those few module names only and hands the import on). So Dask
never meets a gpunp chunk unregistered (a worker reads gpunp's frames
before it has made a gpunp array), and nothing here imports Dask.
"""

import sys

# module: its dispatch tables that gpunp.dask.register fills
_TABLES = {
    "dask.sizeof": ("sizeof",),
    "dask.array.dispatch": ("concatenate_lookup", "take_lookup", "tensordot_lookup",
                            "einsum_lookup", "empty_lookup", "divide_lookup",
                            "percentile_lookup", "numel_lookup", "nannumel_lookup",
                            "to_numpy_dispatch", "to_cupy_dispatch"),
    "distributed.protocol.serialize": ("dask_serialize", "dask_deserialize"),
    "distributed.protocol.cuda": ("cuda_serialize", "cuda_deserialize"),
}


def _register():
    from gpunp.dask import register

    register()


def _fill(module) -> None:
    for name in _TABLES[module.__name__]:
        table = getattr(module, name, None)
        if table is not None:
            table.register_lazy("gpunp", _register)


class _AfterImport:
    """A meta path finder for the modules of _TABLES not imported yet: it
    finds each through the other finders and fills its tables once the
    module has run."""

    def __init__(self, names):
        self.pending = set(names)

    def find_spec(self, name, path=None, target=None):
        if name not in self.pending:
            return None
        self.pending.discard(name)
        if not self.pending and self in sys.meta_path:
            sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module):
            run(module)
            _fill(module)
        loader.exec_module = exec_module  # this module's loader object only
        return spec


def install() -> None:
    pending = []
    for name in _TABLES:
        module = sys.modules.get(name)
        if module is not None:
            _fill(module)
        else:
            pending.append(name)
    if pending:
        sys.meta_path.insert(0, _AfterImport(pending))
