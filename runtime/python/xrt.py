"""xrt — the vendor's runtime module (icraft.xrt) on Zhuge Workbench's runtime.

    from xrt import *
    device = Device.Open("mock://zg330")
    host = HostDevice.Default()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, host])
    sess.apply()
    outputs = sess.forward([Tensor.fromNumpy(image, network.inputs()[0])])

Devices by URL (mock://zg330, mock://buyi; socket:// and axi:// say they are not available
in this build); memory regions and chunks; Tensor (with numpy interoperation); Session
(forward, forward into given outputs, stepTo, sub, logs, dumps, time profile, snapshot,
callbacks) and Backend (Backend.Create). Errors raise XrtError with the runtime's message.
"""
import datetime

import xir
from _zhuge import GLib, Xrt, XrtError, call, document, unsupported, wrap

__all__ = ["Device", "HostDevice", "MemRegion", "MemChunk", "Tensor", "Session", "Backend", "XrtError"]

_G_MAXINT = 2 ** 31 - 1


# ---- devices and memory -------------------------------------------------------------

class MemChunk:
    """One allocated block of a memory region (refcounted; freed when the last reference goes
    if it was allocated with auto_free)."""

    def begin(self):
        return self._obj.get_addr()

    def addr(self):
        return self._obj.get_addr()

    def size(self):
        return self._obj.get_size()

    def memRegion(self):
        return wrap(MemRegion, self._obj.get_region())

    def isOn(self, region):
        return self._obj.get_region().get_name() == region._obj.get_name()

    def read(self, dest=None, src_offset=0, byte_size=None):
        """Returns the bytes (and copies them into @dest, a writable buffer, when given)."""
        n = self.size() - src_offset if byte_size is None else byte_size
        data = call(self._obj.read_bytes, src_offset, n).get_data()
        if dest is not None:
            memoryview(dest).cast("B")[:n] = data
        return data

    def write(self, dest_offset, src, byte_size=None):
        data = bytes(memoryview(src).cast("B"))
        if byte_size is not None:
            data = data[:byte_size]
        call(self._obj.write, dest_offset, data)

    def copyFrom(self, dest_offset, src_chunk, src_offset, byte_size):
        call(self._obj.copy_from, dest_offset, src_chunk._obj, src_offset, byte_size)

    def free(self):
        call(self._obj.free)

    def __repr__(self):
        return f"xrt.MemChunk(0x{self.addr():x}, {self.size()} bytes, {self._obj.get_region().get_name()})"


class MemRegion:
    """A memory space of a device: ETM, OCM or HOST."""

    def name(self):
        return self._obj.get_name()

    def malloc(self, byte_size, auto_free=True, alignment=4096):
        return wrap(MemChunk, call(self._obj.malloc, byte_size, auto_free, alignment))

    def mallocAt(self, addr, byte_size, auto_free=True):
        return wrap(MemChunk, call(self._obj.malloc_at, addr, byte_size, auto_free))

    def device(self):
        d = self._obj.get_device()
        return wrap(Device, d) if d is not None else HostDevice.Default()

    def memManager(self):
        unsupported("MemRegion.memManager (the allocator is the region's own here)")

    def __repr__(self):
        return f"xrt.MemRegion({self.name()})"


class Device:
    """A device opened by URL: mock://zg330[?profile=PATH], mock://buyi."""

    def __init__(self, *args):
        unsupported("xrt.Device(...) constructor (use Device.Open(url))")

    @staticmethod
    def Open(url):
        return wrap(Device, call(Xrt.Device.open, url))

    def close(self):
        self._obj.close()

    def url(self):
        return self._obj.get_url()

    def reset(self, level=1):
        call(self._obj.reset, level)

    def check(self, level=1):
        return call(self._obj.check, level)

    def version(self):
        return dict(self._obj.get_version())

    def setWaitTime(self, wait_time_ms):
        self._obj.set_wait_time(int(wait_time_ms))

    def defaultMemRegion(self):
        return wrap(MemRegion, self._obj.get_default_mem_region())

    def getMemRegion(self, name):
        return wrap(MemRegion, call(self._obj.get_mem_region, name))

    def setDefaultMemRegion(self, name):
        call(self._obj.set_default_mem_region, name)
        return self

    def readReg(self, addr):
        return call(self._obj.read_reg, addr)[1]

    def writeReg(self, addr, value):
        call(self._obj.write_reg, addr, value)

    def defaultRegRegion(self):
        unsupported("Device.defaultRegRegion (registers are read with Device.readReg/writeReg)")

    def showStatus(self, level=1):
        unsupported("Device.showStatus (use `xrt-run` or the workbench's device panel)")

    def __repr__(self):
        return f"xrt.Device({self.url()!r})"


class HostDevice:
    """The host: the device of the HostBackend (its memory is the host's)."""

    _default = None

    @staticmethod
    def Default():
        if HostDevice._default is None:
            HostDevice._default = HostDevice.__new__(HostDevice)
            HostDevice._default._obj = None
        return HostDevice._default

    def defaultMemRegion(self):
        return wrap(MemRegion, Xrt.host_mem_region_get_default())

    def __repr__(self):
        return "xrt.HostDevice()"


# ---- tensors ----------------------------------------------------------------------------

from _tensor import Tensor  # noqa: E402  (the Tensor lives in its own file: it is the largest)


# ---- backends and sessions ------------------------------------------------------------

class Backend:
    """A backend of a session (Backend.Create or Session.backends); cast it to its class
    with ZG330Backend(backend), HostBackend(backend), BuyiBackend(backend)."""

    @staticmethod
    def Create(backend_class, network_view, device):
        dev = device._obj if device is not None else None
        return wrap(Backend, call(Xrt.Backend.new, backend_class._vendor_name, network_view._obj, dev))

    def name(self):
        return self._obj.get_name()

    def apply(self):
        call(self._obj.apply)

    def isApplied(self):
        return self._obj.is_applied()

    def fork(self):
        return wrap(type(self), call(self._obj.fork))

    def device(self):
        d = self._obj.get_device()
        return wrap(Device, d) if d is not None else HostDevice.Default()

    def is_type(self, backend_class):
        """As the manual's backend_bindings[i].is_type(HostBackend)."""
        return self._obj.get_name() == backend_class._vendor_name

    def isOpSupported(self, op):
        return self._obj.owns_op(op.op_id)

    def forwardOp(self, *args):
        unsupported("Backend.forwardOp (a backend runs its ops through Session.forward / stepTo)")

    def enableTimeProfile(self, enable):
        unsupported("Backend.enableTimeProfile (use Session.enableTimeProfile)")

    def __repr__(self):
        return f"xrt.Backend({self.name()})"


def _tensors(lst):
    return [t._obj for t in (lst or [])]


class Session:
    """A network view bound to backends, applied and run forward."""

    def __init__(self, *args):
        unsupported("xrt.Session(...) constructor (use Session.Create)")

    @staticmethod
    def Create(backend_classes, network_view, devices):
        if isinstance(network_view, xir.Network):
            network_view = network_view.view(0)
        names = [c._vendor_name for c in backend_classes]
        devs = [d._obj if d is not None else None for d in devices]
        if len(devs) != len(names):
            raise XrtError(f"Session.Create: {len(names)} backends but {len(devs)} devices")
        s = wrap(Session, call(Xrt.Session.new, network_view._obj, names, devs))
        s._keep = []
        return s

    @staticmethod
    def CreateWithSnapshot(path, backends=None, devices=None, network=None, device=None):
        """CreateWithSnapshot(file, [BuyiBackend, HostBackend], [device, HostDevice.Default()]) as
        the manual writes it, or with network= and device= keywords. The backends are the ones
        the snapshot records; the board is the first device that is not the host (or, with
        none, the default board of the recorded backend)."""
        if device is None and devices:
            device = next((d for d in devices if d is not None and getattr(d, "_obj", None) is not None), None)
        s = wrap(Session, call(Xrt.Session.new_from_snapshot, str(path), network._obj if network else None,
                               device._obj if device else None))
        s._keep = []
        return s

    @property
    def backends(self):
        return [wrap(Backend, b) for b in self._obj.get_backends()]

    def backendBindings(self):
        out = {}
        for op in self.networkView().ops():
            b = self._obj.get_op_backend(op.op_id)
            out[op.op_id] = wrap(Backend, b)
        return out

    def networkView(self):
        return wrap(xir.NetworkView, self._obj.get_view())

    def network(self):
        return wrap(xir.Network, self._obj.get_network())

    def apply(self):
        call(self._obj.apply)

    def isApplied(self):
        return self._obj.is_applied()

    def getForwards(self):
        """[(op_id, backend name, merge_from, input v_ids, output v_ids)] in execution order."""
        out = []
        for i in range(self._obj.get_n_forwards()):
            f = self._obj.get_forward(i)
            out.append((f.op_id, f.backend.get_name(), list(f.get_merge_from()),
                        list(f.get_input_ids()), list(f.get_output_ids())))
        return out

    def forward(self, inputs, outputs=None):
        if outputs is None:
            return [wrap(Tensor, t) for t in call(self._obj.forward, _tensors(inputs))]
        call(self._obj.forward_into, _tensors(inputs), _tensors(outputs))
        return None

    def compareWithHost(self, inputs):
        """The host reference run in one call: forward(inputs) on this session and on the same
        view with the HostBackend alone (every HardOp on the host by the board's own kernels,
        as Session.Create([HostBackend], view, [HostDevice.Default()]) runs it), each output
        compared byte for byte. Returns (identical, report): report has one line per output
        (identical, or how many bytes differ and the first)."""
        r = call(self._obj.compare_with_host, _tensors(inputs))
        identical, report = r[-2], r[-1]
        return bool(identical), report or ""

    def stepTo(self, op_id, inputs=None):
        return [wrap(Tensor, t) for t in call(self._obj.step_to, op_id, _tensors(inputs) if inputs else None)]

    def sub(self, start, end=None):
        s = wrap(Session, call(self._obj.sub, start, _G_MAXINT if end is None else end))
        s._keep = []
        return s

    def fork(self):
        s = wrap(Session, call(self._obj.fork))
        s._keep = []
        return s

    def setLogIO(self, flag):
        self._obj.set_log_io(bool(flag))

    def setLogTime(self, flag):
        self._obj.set_log_time(bool(flag))

    def setDumpOutputs(self, flag, path, format="SFB"):
        call(self._obj.set_dump_outputs, bool(flag), str(path) if path else None, format)

    def enableTimeProfile(self, enable):
        self._obj.enable_time_profile(bool(enable))

    def timeProfileResults(self):
        """{op_id: (total, memcpy, hard, other)} in ms, of the last profiled forward."""
        p = self._obj.get_time_profile()
        if p is None:
            return {}
        out = {}
        for i in range(p.get_n_rows()):
            r = p.get_row(i)
            out[r.op_id] = (r.total_ms, r.memcpy_ms, r.hard_ms, r.other_ms)
        return out

    def totalTime(self):
        return self._obj.get_total_time()

    def dumpSnapshot(self, path):
        call(self._obj.dump_snapshot, str(path))

    def _callback(self, setter, func):
        if func is None:
            setter(None)
            return

        def trampoline(session, step, outputs, *_data):
            op = self._obj.get_network().get_op_by_id(step.op_id) if step.op is not None else None
            func(self, wrap(xir.Operation, op) if op is not None else step.op_id,
                 wrap(Backend, step.backend), [wrap(Tensor, t) for t in outputs])

        self._keep.append(trampoline)
        setter(trampoline)

    def setPreCallBack(self, func):
        self._callback(self._obj.set_pre_callback_full, func)

    def setPostCallBack(self, func):
        self._callback(self._obj.set_post_callback_full, func)

    def __repr__(self):
        return f"xrt.Session({self.network().name()!r})"


# help(): each wrapper's docstring, then the runtime's documentation of what it calls
document(MemChunk, "Xrt", "xrt_mem_chunk_", {
    "begin": "get_begin", "addr": "get_addr", "size": "get_size", "memRegion": "get_region", "isOn": "is_on",
    "read": "read_bytes", "write": "write", "copyFrom": "copy_from", "free": "free"})
document(MemRegion, "Xrt", "xrt_mem_region_", {
    "name": "get_name", "malloc": "malloc", "mallocAt": "malloc_at", "device": "get_device",
    "memManager": "get_manager"})
document(Device, "Xrt", "xrt_device_", {
    "Open": "open", "close": "close", "url": "get_url", "reset": "reset", "check": "check",
    "version": "get_version", "setWaitTime": "set_wait_time", "defaultMemRegion": "get_default_mem_region",
    "getMemRegion": "get_mem_region", "setDefaultMemRegion": "set_default_mem_region", "readReg": "read_reg",
    "writeReg": "write_reg", "showStatus": "show_status"})
document(Backend, "Xrt", "xrt_backend_", {
    "Create": "new", "name": "get_name", "apply": "apply", "isApplied": "is_applied", "fork": "fork",
    "device": "get_device", "isOpSupported": "owns_op"})
document(Session, "Xrt", "xrt_session_", {
    "Create": "new", "CreateWithSnapshot": "new_from_snapshot", "backendBindings": "get_op_backend",
    "networkView": "get_view", "network": "get_network", "apply": "apply", "isApplied": "is_applied",
    "getForwards": "get_forwards", "forward": ("forward", "forward_into"), "stepTo": "step_to", "sub": "sub",
    "fork": "fork", "setLogIO": "set_log_io", "setLogTime": "set_log_time", "setDumpOutputs": "set_dump_outputs",
    "enableTimeProfile": "enable_time_profile", "timeProfileResults": "get_time_profile",
    "totalTime": "get_total_time", "compareWithHost": "compare_with_host", "dumpSnapshot": "dump_snapshot", "setPreCallBack": "set_pre_callback",
    "setPostCallBack": "set_post_callback"})
