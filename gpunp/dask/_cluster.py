"""A local dask.distributed cluster of gpunp workers: one worker process per
visible GPU, each pinned to its GPU, or on a machine without one, worker
processes on the host backend (dask-cuda's ``LocalCUDACluster`` for gpunp)."""

import os

import gpunp
import gpunp.dask
from distributed import Nanny, Scheduler, SpecCluster

# The variable that makes one device the only visible one, by backend
_PIN = {"cuda": "CUDA_VISIBLE_DEVICES", "hip": "HIP_VISIBLE_DEVICES"}


def _visible_devices(var: str) -> list[str]:
    # the devices this process may use, as the variable names them, so a
    # worker pinned to one names it the same way
    listed = os.environ.get(var)
    if listed is not None:
        return [d.strip() for d in listed.split(",") if d.strip()]
    return [str(i) for i in range(gpunp.cuda.runtime.getDeviceCount())]


class LocalCluster(SpecCluster):
    """A cluster on this machine whose workers compute on gpunp arrays.

    With a GPU backend (CUDA or HIP), one worker process per visible GPU
    (``CUDA_VISIBLE_DEVICES``/``HIP_VISIBLE_DEVICES`` of this process, all
    devices when unset), each started with that variable set to its one
    device; `n_workers` takes the first that many. On the host backend,
    `n_workers` worker processes (default 1), each on the host backend.
    Every worker imports ``gpunp.dask`` at start (a preload), so gpunp's
    serialisers are registered before any chunk arrives. Other keywords go
    to each worker (``memory_limit``...), ``scheduler_port`` and
    ``dashboard_address`` to the scheduler (dashboard off by default), and
    ``asynchronous``/``silence_logs`` to ``SpecCluster``.
    """

    def __init__(self, n_workers=None, *, threads_per_worker=1, scheduler_port=0,
                 dashboard_address=None, asynchronous=False, silence_logs=True,
                 **worker_kwargs):
        gpunp.dask.register()  # this process' serialisers, distributed being imported now
        name = gpunp.backend()
        var = _PIN.get(name)
        if var is not None:
            devices = _visible_devices(var)
            if n_workers is not None:
                if n_workers > len(devices):
                    raise ValueError(f"n_workers={n_workers} but {len(devices)} GPUs are visible")
                devices = devices[:n_workers]
            envs = [{var: d, "GPUNP_BACKEND": name} for d in devices]
        else:
            n = 1 if n_workers is None else n_workers
            envs = [{"GPUNP_BACKEND": "host"}] * n
        if not envs or (n_workers is not None and n_workers < 1):
            raise ValueError("a cluster needs at least one worker")
        preload = list(worker_kwargs.pop("preload", ())) + ["gpunp.dask"]
        workers = {
            i: {"cls": Nanny, "options": {"nthreads": threads_per_worker, "env": env,
                                          "preload": preload, **worker_kwargs}}
            for i, env in enumerate(envs)
        }
        # the scheduler's HTTP server (health, metrics) on a free port unless
        # a dashboard address is asked for
        scheduler = {"cls": Scheduler, "options": {
            "port": scheduler_port, "dashboard_address": dashboard_address or ":0",
            "dashboard": dashboard_address is not None}}
        super().__init__(workers=workers, scheduler=scheduler, asynchronous=asynchronous,
                         silence_logs=silence_logs, name="gpunp.dask.LocalCluster")
