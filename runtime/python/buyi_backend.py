"""buyi_backend — the vendor's BuyiBackend module on Zhuge Workbench's runtime: a network
compiled for the Buyi chip (@buyit) deploys the compiler's own placement on mock://buyi."""
from _zhuge import Buyi
from zg330backend import OcmOpt, SegmentType, ZG330Backend

__all__ = ["BuyiBackend", "OcmOpt", "SegmentType"]


class BuyiBackend(ZG330Backend):
    """The BuyiBackend: the deploy facts as for the ZG330Backend; merge and ETM optimize are
    off, ocmOptimize other than NONE raises (the compiler placed every value)."""

    _vendor_name = "BuyiBackend"
    _gi_class = Buyi.Backend
