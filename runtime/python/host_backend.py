"""host_backend — the vendor's HostBackend module on Zhuge Workbench's runtime."""
import xrt
from _zhuge import Host, XrtError, need

__all__ = ["HostBackend"]


class HostBackend(xrt.Backend):
    """The host's backend: Input, Output, Cast, Resize and the board IP models (DetPostZG,
    ImageMake, DetPost), timed by the board's cost model; and every HardOp, by the board's own
    behavioural kernels (the host reference run): Session.Create([HostBackend], view,
    [HostDevice.Default()]) runs a ZG330 or Buyi network without a board, with the board's
    bytes (Session.compareWithHost compares the two)."""

    _vendor_name = "HostBackend"

    def __init__(self, backend=None):
        need(backend, xrt.Backend, "backend", "HostBackend")
        obj = backend._require("HostBackend(backend)")
        if not isinstance(obj, Host.Backend):
            raise XrtError(f"HostBackend(backend): the backend is a {obj.get_name()}")
        self._obj = obj
