"""Issue 36: every method of the vendor's `xrt` Python module reference
(reference/xrt-python-api.zh.md) exists under its name; where the ZG330 runtime has no such
thing, calling it raises NotImplementedError naming it (the list below says which, and the
message says why). What each working method does is tested in test_vendor_api.py and
test_vendor_parity.py."""
import pytest

import xir
import xrt
from host_backend import HostBackend
from zg330backend import ZG330Backend

from conftest import net_path, raw_path

REFERENCE = {
    "Backend": ["Create", "apply", "clone", "deinit", "device", "enableTimeProfile", "fork", "forwardOp",
                "getForwardFunc", "getInitFunc", "init", "initOp", "isOpSupported", "network_view", "setDevice",
                "setTimeElapses", "snapshot", "time_profile"],
    "BuyiDevice": ["calcTime", "clkFreq", "clone", "getRowsCols", "icoreCalc", "layerCount", "mmuModeSwitch",
                   "modeInfo", "readReg", "setClkFreq", "setDType", "setEnabledMPE", "updateBuffer", "writeReg"],
    "Device": ["Close", "Open", "check", "clone", "defaultMemRegion", "defaultRegRegion", "getMemRegion",
               "getRegRegion", "malloc", "readReg", "reset", "setDefaultMemRegion", "setDefaultRegRegion",
               "setWaitTime", "showStatus", "version", "writeReg"],
    "HostDevice": ["Default", "MemRegion"],
    "HostMemRegion": [],
    "MemChunk": ["Init", "begin", "byte_size", "clone", "copyFrom", "free", "isOn", "read", "region", "write"],
    "MemManager": ["clone", "getAllMemChunk", "getMemChunk", "getMemRegionInfo"],
    "MemPtr": ["Init", "NullPtr", "addr", "clone", "cptr", "isNull", "ptype"],
    "MemRegion": ["clone", "device", "malloc", "memManager"],
    "PtrType": ["CPTR", "ADDR", "BOTH"],
    "RegRegion": ["clone", "device", "read", "write"],
    "Session": ["Create", "CreateByOrder", "CreateWithBackends", "CreateWithSnapshot", "Init", "apply",
                "backendBindings", "backends", "clone", "dumpSnapshot", "enableTimeProfile", "forward", "getForwards",
                "network_view", "setDumpOutputs", "setLogIO", "setLogTime", "setPostCallBack", "setPreCallBack",
                "stepTo", "sub", "timeProfileResults", "totalTime"],
    "Tensor": ["Init", "chunk", "clone", "copyData", "copyFrom", "data", "dtype", "dump", "fill", "hasData", "isOn",
               "isReady", "mallocOn", "memRegion", "offset", "read", "setCheckFunc", "setDType", "setData",
               "setReady", "to", "waitForReady", "write"],
    "ZG330Device": ["calcTime", "clone", "configProfiler", "configTimer", "getRowsCols", "icoreCalc", "layerCount",
                    "rTileCount", "readReg", "setDDRClkFreq", "setIcoreClkFreq", "setMasterCID", "showLayerTime",
                    "wTileCount", "writeReg"],
}

# methods the ZG330 runtime has no counterpart of, and why (the error says it too)
NOT_ON_ZG330 = {
    ("Backend", "enableTimeProfile"): "profiling is the session's",
    ("Backend", "forwardOp"): "ops run through Session.forward",
    ("Backend", "getForwardFunc"): "no per-op function table",
    ("Backend", "getInitFunc"): "no per-op function table",
    ("Backend", "initOp"): "apply deploys the whole view",
    ("Backend", "setTimeElapses"): "the session times every step",
    ("Backend", "snapshot"): "a snapshot is the session's",
    ("Backend", "time_profile"): "profiling is the session's",
    ("BuyiDevice", "clkFreq"): "the clock is the profile's",
    ("BuyiDevice", "setClkFreq"): "the clock is the profile's",
    ("BuyiDevice", "modeInfo"): "the backend keeps the MMU context",
    ("BuyiDevice", "mmuModeSwitch"): "the backend keeps the MMU context",
    ("BuyiDevice", "setDType"): "8/16-bit mode comes from the hardops",
    ("BuyiDevice", "setEnabledMPE"): "the MPE grid is the profile's",
    ("BuyiDevice", "updateBuffer"): "the backend keeps the MMU segment table",
    ("MemChunk", "Init"): "chunks come from malloc",
    ("Session", "Init"): "sessions come from Create*",
    ("Tensor", "Init"): "a tensor needs a type",
}


@pytest.mark.parametrize("cls, method", [(c, m) for c, ms in REFERENCE.items() for m in ms] +
                         [(c, None) for c, ms in REFERENCE.items() if not ms])
def test_reference_method_exists(cls, method):
    klass = getattr(xrt, cls)
    if method is not None:
        assert hasattr(klass, method), f"xrt.{cls}.{method}"


@pytest.fixture
def objects():
    network = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
    device = xrt.Device.Open("mock://zg330")
    backend = xrt.Backend.Create(ZG330Backend, network.view(0), device)
    sess = xrt.Session.Create([ZG330Backend, HostBackend], network.view(0), [device, xrt.HostDevice.Default()])
    return {"Backend": backend, "BuyiDevice": xrt.BuyiDevice(xrt.Device.Open("mock://buyi")),
            "MemChunk": xrt.MemChunk, "Session": xrt.Session, "Tensor": xrt.Tensor}


@pytest.mark.parametrize("cls, method", sorted(NOT_ON_ZG330))
def test_absent_methods_raise_not_implemented_naming_them(objects, cls, method):
    target = objects[cls]
    with pytest.raises(NotImplementedError) as e:
        attr = getattr(target, method)
        if callable(attr):
            attr(*([None] * (attr.__code__.co_argcount - (0 if isinstance(target, type) else 1))))
    assert f"{cls}.{method}" in str(e.value)
