"""xrt — the vendor's runtime module (icraft.xrt) on Zhuge Workbench's runtime.

    from xrt import *
    device = Device.Open("mock://zg330")
    host = HostDevice.Default()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, host])
    sess.apply()
    outputs = sess.forward([Tensor.fromNumpy(image, network.inputs()[0])])

Devices by URL (mock://zg330, mock://buyi; socket:// and axi:// say they are not available
in this build); memory regions and chunks, MemPtr, MemManager and RegRegion (_memory.py);
Tensor with the vendor's overloads, dump formats and numpy interoperation (_tensor.py);
Session (Create, CreateWithBackends, CreateByOrder, CreateWithSnapshot; forward, forward into
given outputs, stepTo, sub, logs, dumps, time profile, snapshot, callbacks) and Backend
(Backend.Create, ZG330Backend.Init() + init). Errors raise XrtError with the runtime's
message; a wrong argument type, TypeError naming the argument; a vendor call this runtime
has no counterpart of, NotImplementedError naming it.
"""
import datetime

import xir
from _zhuge import GLib, Xrt, XrtError, call, document, need, need_list, unsupported, wrap
from _memory import MemManager, MemPtr, PtrType, RegRegion, wrap_manager

__all__ = ["Pipeline", "Device", "HostDevice", "MemRegion", "HostMemRegion", "MemChunk", "MemPtr", "PtrType", "MemManager", "RegRegion", "Tensor",
           "Session", "Backend", "ZG330Device", "BuyiDevice", "XrtError"]

_G_MAXINT = 2 ** 31 - 1


# ---- devices and memory -------------------------------------------------------------

class MemChunk:
    """One allocated block of a memory region (refcounted; freed when the last reference goes
    if it was allocated with auto_free). Made by MemRegion.malloc / Device.malloc;
    MemChunk(chunk) is the vendor's cast."""

    def __init__(self, chunk=None):
        if not isinstance(chunk, MemChunk):
            raise TypeError("xrt.MemChunk(): a chunk comes from MemRegion.malloc(byte_size) or "
                            "Device.malloc(byte_size); MemChunk(chunk) casts one"
                            + ("" if chunk is None else f" (got {type(chunk).__name__})"))
        self._obj = chunk._obj

    @staticmethod
    def Init():
        unsupported("MemChunk.Init() (a chunk without memory: chunks come from MemRegion.malloc)")

    @property
    def begin(self):
        """The chunk's MemPtr (its device address; on the host also its C pointer)."""
        return MemPtr._of_chunk(self)

    @property
    def byte_size(self):
        return self._obj.get_size()

    @property
    def region(self):
        return wrap(MemRegion, self._obj.get_region())

    def addr(self):
        return self._obj.get_addr()

    def size(self):
        return self._obj.get_size()

    def memRegion(self):
        return wrap(MemRegion, self._obj.get_region())

    def isOn(self, region):
        """On this very region (of this device), not on one of the same name elsewhere."""
        need(region, MemRegion, "region", "MemChunk.isOn")
        return self._obj.is_on(region._obj)

    def _range(self, what, offset, byte_size):
        need(offset, int, "offset", f"MemChunk.{what}")
        size = self._obj.get_size()
        n = size - offset if byte_size is None else byte_size
        need(n, int, "byte_size", f"MemChunk.{what}")
        if offset < 0 or n < 0 or offset + n > size:
            raise XrtError(f"MemChunk.{what}: [{offset}, {offset + n}) is outside the chunk's {size} bytes "
                           f"(0x{self._obj.get_addr():x} in {self._obj.get_region().get_name()})")
        return n

    def read(self, dest=None, src_offset=0, byte_size=None):
        """Returns the bytes (and copies them into @dest, a writable buffer, when given); a
        range past the chunk's end is an error."""
        n = self._range("read", src_offset, byte_size)
        data = call(self._obj.read_bytes, src_offset, n).get_data()
        if dest is not None:
            m = memoryview(dest).cast("B")
            if len(m) < n:
                raise XrtError(f"MemChunk.read: dest holds {len(m)} bytes, {n} are read")
            m[:n] = data
        return data

    def write(self, dest_offset, src, byte_size=None):
        data = bytes(memoryview(src).cast("B"))
        if byte_size is not None:
            if byte_size > len(data):
                raise XrtError(f"MemChunk.write: byte_size {byte_size} is more than the {len(data)} bytes given")
            data = data[:byte_size]
        self._range("write", dest_offset, len(data))
        call(self._obj.write, dest_offset, data)

    def copyFrom(self, dest_offset, src_chunk, src_offset, byte_size):
        need(src_chunk, MemChunk, "src_chunk", "MemChunk.copyFrom")
        call(self._obj.copy_from, dest_offset, src_chunk._obj, src_offset, byte_size)

    def free(self):
        call(self._obj.free)

    def clone(self, depth=1):
        """The same chunk (a chunk is a reference to memory: clone shares it)."""
        return wrap(MemChunk, self._obj)

    def __eq__(self, other):
        return isinstance(other, MemChunk) and other._obj.get_addr() == self._obj.get_addr() and \
            other._obj.get_region() == self._obj.get_region()

    __hash__ = None

    def __repr__(self):
        return f"xrt.MemChunk(0x{self.addr():x}, {self.size()} bytes, {self._obj.get_region().get_name()})"


class MemRegion:
    """A memory space of a device: ETM, OCM or HOST. From Device.getMemRegion(name),
    Device.defaultMemRegion(), HostDevice.MemRegion(); MemRegion(region) is the vendor's cast."""

    def __init__(self, region=None):
        if not isinstance(region, MemRegion):
            raise TypeError("xrt.MemRegion(): a region comes from Device.getMemRegion(name), "
                            "Device.defaultMemRegion() or HostDevice.MemRegion(); MemRegion(region) casts one"
                            + ("" if region is None else f" (got {type(region).__name__})"))
        self._obj = region._obj

    def name(self):
        return self._obj.get_name()

    def malloc(self, byte_size, auto_free=True, alignment=4096, *rest):
        """malloc(byte_size, auto_free=True, alignment): a new chunk; malloc(MemPtr begin,
        byte_size, deleter=None, auto_free=True): the chunk at that address (device regions)."""
        if isinstance(byte_size, MemPtr):
            begin, size = byte_size, auto_free
            deleter = alignment if alignment != 4096 else None
            free = rest[0] if rest else True
            if deleter is not None:
                unsupported("MemRegion.malloc(begin, byte_size, deleter) with a deleter (the region frees its own memory)")
            need(size, int, "byte_size", "MemRegion.malloc")
            return self.mallocAt(begin.addr(), size, bool(free))
        need(byte_size, int, "byte_size", "MemRegion.malloc")
        need(alignment, int, "alignment", "MemRegion.malloc")
        return wrap(MemChunk, call(self._obj.malloc, byte_size, bool(auto_free), alignment))

    def mallocAt(self, addr, byte_size, auto_free=True):
        return wrap(MemChunk, call(self._obj.malloc_at, addr, byte_size, auto_free))

    def device(self):
        d = self._obj.get_device()
        return wrap(Device, d) if d is not None else HostDevice.Default()

    def memManager(self):
        return wrap_manager(self._obj)

    def clone(self, depth=1):
        return wrap(MemRegion, self._obj)

    def __repr__(self):
        return f"xrt.MemRegion({self.name()})"


class HostMemRegion(MemRegion):
    """The host's memory region (HostDevice.MemRegion())."""

    def __init__(self, *args):
        raise TypeError("xrt.HostMemRegion(): the host's region is HostDevice.MemRegion()")


class Device:
    """A device opened by URL: mock://zg330[?profile=PATH], mock://buyi. Device.Open(url);
    Device(device) is the vendor's cast."""

    def __init__(self, device=None):
        if not isinstance(device, Device):
            raise TypeError("xrt.Device(): a device comes from Device.Open(url); Device(device) casts one"
                            + ("" if device is None else f" (got {type(device).__name__})"))
        self._obj = device._obj

    @staticmethod
    def Open(url):
        need(url, str, "url", "Device.Open")
        return wrap(Device, call(Xrt.Device.open, url))

    @staticmethod
    def Close(device):
        """Device.Close(device): closes it (its chunks are freed; its regions allocate nothing)."""
        need(device, Device, "device", "Device.Close")
        device._obj.close()

    def close(self):
        self._obj.close()

    def isClosed(self):
        return self._obj.is_closed()

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
        need(name, str, "name", "Device.getMemRegion")
        return wrap(MemRegion, call(self._obj.get_mem_region, name))

    def setDefaultMemRegion(self, name):
        call(self._obj.set_default_mem_region, name)
        return self

    def malloc(self, *args):
        """malloc(byte_size) on the default region; malloc(mem_region_name, byte_size)."""
        if len(args) == 1:
            region, size = None, args[0]
        elif len(args) == 2:
            region, size = need(args[0], str, "mem_region", "Device.malloc"), args[1]
        else:
            raise TypeError("Device.malloc(byte_size) or Device.malloc(mem_region, byte_size)")
        need(size, int, "byte_size", "Device.malloc")
        if region is None:
            region = self._obj.get_default_mem_region().get_name()
        return wrap(MemChunk, call(self._obj.malloc, region, size))

    def defaultRegRegion(self):
        r = RegRegion.__new__(RegRegion)
        r._device = self
        return r

    def getRegRegion(self, name):
        need(name, str, "name", "Device.getRegRegion")
        if name != RegRegion.NAME:
            raise XrtError(f"Device.getRegRegion: device {self.url()} has no register region {name!r} "
                           f"(it has {RegRegion.NAME!r})")
        return self.defaultRegRegion()

    def setDefaultRegRegion(self, name):
        self.getRegRegion(name)
        return self

    def readReg(self, *args):
        """readReg(addr, relative=False) on the default register region; readReg(region_name,
        addr, relative=False)."""
        region = self.getRegRegion(args[0]) if args and isinstance(args[0], str) else self.defaultRegRegion()
        rest = args[1:] if args and isinstance(args[0], str) else args
        if not 1 <= len(rest) <= 2:
            raise TypeError("Device.readReg(addr, relative=False) or readReg(region_name, addr, relative=False)")
        return region.read(*rest)

    def writeReg(self, *args):
        """writeReg(addr, data, relative=False); writeReg(region_name, addr, data, relative=False)."""
        region = self.getRegRegion(args[0]) if args and isinstance(args[0], str) else self.defaultRegRegion()
        rest = args[1:] if args and isinstance(args[0], str) else args
        if not 2 <= len(rest) <= 3:
            raise TypeError("Device.writeReg(addr, data, relative=False) or writeReg(region_name, addr, data, "
                            "relative=False)")
        region.write(*rest)

    def showStatus(self, level=1):
        """Prints the device's status (regions, chunks, registers; level >= 1 adds every
        chunk and hardop binding) and returns the text."""
        text = Xrt.Device.get_status_text(self._obj, int(level))
        print(text, end="")
        return text

    def clone(self, depth=1):
        return wrap(Device, self._obj)

    def __eq__(self, other):
        return isinstance(other, Device) and other._obj == self._obj

    __hash__ = None

    def __repr__(self):
        return f"xrt.Device({self.url()!r})"


class HostDevice:
    """The host: the device of the HostBackend (its memory is the host's)."""

    _default = None

    def __init__(self):
        self._obj = None

    @staticmethod
    def Default():
        if HostDevice._default is None:
            HostDevice._default = HostDevice()
        return HostDevice._default

    @staticmethod
    def MemRegion():
        """The host's memory region (HostMemRegion)."""
        return wrap(HostMemRegion, Xrt.host_mem_region_get_default())

    def defaultMemRegion(self):
        return wrap(MemRegion, Xrt.host_mem_region_get_default())

    def malloc(self, byte_size):
        return self.defaultMemRegion().malloc(byte_size)

    def __repr__(self):
        return "xrt.HostDevice()"


# ---- tensors ----------------------------------------------------------------------------

from _tensor import Tensor  # noqa: E402  (the Tensor lives in its own file: it is the largest)


# ---- backends and sessions ------------------------------------------------------------

def _new_backend(name, view, device):
    """A backend of class @name on @view (of view([op ids]): owning those ops) and @device."""
    obj = call(Xrt.Backend.new, name, view._obj, device._obj if device is not None else None)
    if not view.isRun():
        call(obj.set_op_ids, view.opIds())
    return obj


class Backend:
    """A backend of a session (Backend.Create, Session.backends, or ZG330Backend.Init() then
    init(network_view, device)); cast it to its class with ZG330Backend(backend),
    HostBackend(backend), BuyiBackend(backend)."""

    _vendor_name = None

    def __init__(self, backend=None):
        if not isinstance(backend, Backend):
            raise TypeError("xrt.Backend(): a backend comes from Backend.Create(ZG330Backend, view, device) or "
                            "ZG330Backend.Init() + init(view, device); Backend(backend) casts one"
                            + ("" if backend is None else f" (got {type(backend).__name__})"))
        self._obj = backend._require("Backend(backend)")

    @classmethod
    def Init(cls):
        """An uninitialised backend of this class: init(network_view, device) makes it."""
        if cls._vendor_name is None:
            raise TypeError("Backend.Init(): call it on a backend class: ZG330Backend.Init(), HostBackend.Init()")
        b = cls.__new__(cls)
        b._obj = None
        return b

    def init(self, network_view, device=None):
        """Initialises a backend of Init() on @network_view (a NetworkView, or a Network:
        its view(0)) and @device (None or HostDevice for the HostBackend: the session's board)."""
        import xir
        if getattr(self, "_obj", None) is not None:
            raise XrtError(f"{type(self).__name__}.init: the backend is already initialised")
        if isinstance(network_view, xir.Network):
            network_view = network_view.view(0)
        if device is None:
            device = getattr(self, "_device", None)
        need(network_view, xir.NetworkView, "network_view", f"{type(self).__name__}.init")
        need(device, (Device, HostDevice, type(None)), "device", f"{type(self).__name__}.init")
        self._obj = _new_backend(type(self)._vendor_name, network_view, device)

    def _require(self, what):
        if getattr(self, "_obj", None) is None:
            raise XrtError(f"{what}: the {type(self).__name__} of Init() is not initialised: call "
                           "init(network_view, device) first")
        return self._obj

    def isInitialised(self):
        return getattr(self, "_obj", None) is not None

    @staticmethod
    def Create(backend_class, network_view, device):
        import xir
        if not (isinstance(backend_class, type) and issubclass(backend_class, Backend)
                and backend_class._vendor_name):
            raise TypeError(f"Backend.Create: argument backend_type must be a backend class (ZG330Backend, "
                            f"HostBackend …), not {backend_class!r}")
        if isinstance(network_view, xir.Network):
            network_view = network_view.view(0)
        need(network_view, xir.NetworkView, "network_view", "Backend.Create")
        need(device, (Device, HostDevice, type(None)), "device", "Backend.Create")
        return wrap(Backend, _new_backend(backend_class._vendor_name, network_view, device))

    def name(self):
        return self._require("Backend.name").get_name()

    def apply(self):
        call(self._require("Backend.apply").apply)

    def isApplied(self):
        return self._require("Backend.isApplied").is_applied()

    def fork(self):
        return wrap(type(self), call(self._require("Backend.fork").fork))

    @property
    def device(self):
        d = self._require("Backend.device").get_device()
        return wrap(Device, d) if d is not None else HostDevice.Default()

    @property
    def network_view(self):
        import xir
        return wrap(xir.NetworkView, self._require("Backend.network_view").get_view())

    def is_type(self, backend_class):
        """As the manual's backend_bindings[i].is_type(HostBackend)."""
        return self._require("Backend.is_type").get_name() == backend_class._vendor_name

    def isOpSupported(self, op):
        import xir
        need(op, xir.Operation, "op", "Backend.isOpSupported")
        return self._require("Backend.isOpSupported").owns_op(op.op_id)

    def forwardOp(self, *args):
        unsupported("Backend.forwardOp (a backend runs its ops through Session.forward / stepTo)")

    def getForwardFunc(self, op):
        unsupported("Backend.getForwardFunc (backends have no per-op function table: Session.forward runs them)")

    def getInitFunc(self, op):
        unsupported("Backend.getInitFunc (backends have no per-op function table: apply deploys every op)")

    def initOp(self, op):
        unsupported("Backend.initOp (apply deploys the whole view at once)")

    def setTimeElapses(self, op_id, memcpy_time, hard_time):
        unsupported("Backend.setTimeElapses (the session times every step itself: Session.timeProfileResults)")

    def enableTimeProfile(self, enable):
        unsupported("Backend.enableTimeProfile (use Session.enableTimeProfile)")

    @property
    def time_profile(self):
        unsupported("Backend.time_profile (profiling is the session's: Session.enableTimeProfile)")

    @property
    def snapshot(self):
        unsupported("Backend.snapshot (a snapshot is the session's: Session.dumpSnapshot / CreateWithSnapshot)")

    def setDevice(self, device):
        """Before init (a backend of Init()): the device init will use; after, refused."""
        need(device, (Device, HostDevice), "device", "Backend.setDevice")
        if getattr(self, "_obj", None) is not None:
            raise XrtError(f"Backend.setDevice: the {self.name()} is initialised on {self.device!r}; its device "
                           "is fixed at init")
        self._device = device
        return self

    def clone(self, depth=1):
        """The same backend (a shallow clone shares it, as the vendor's depth 1)."""
        return wrap(type(self), self._require("Backend.clone"))

    def deinit(self):
        """Drops this object's backend (its memory goes when the last session using it does)."""
        self._require("Backend.deinit")
        self._obj = None

    def __repr__(self):
        if getattr(self, "_obj", None) is None:
            return f"xrt.{type(self).__name__}(not initialised)"
        return f"xrt.Backend({self.name()})"


def _tensors(lst, name="inputs", what="Session.forward"):
    if lst is None:
        return []
    need_list(lst, Tensor, name, what)
    return [t._obj for t in lst]


def _backend_objs(backends, what):
    need_list(backends, Backend, "backends", what)
    return [b._require(f"{what}: backends[{i}]") for i, b in enumerate(backends)]


class Session:
    """A network view bound to backends, applied and run forward."""

    def __init__(self, *args):
        raise TypeError("xrt.Session(): a session comes from Session.Create, CreateWithBackends, CreateByOrder "
                        "or CreateWithSnapshot")

    @staticmethod
    def _view(network_view, what):
        if isinstance(network_view, xir.Network):
            network_view = network_view.view(0)
        need(network_view, xir.NetworkView, "network", what)
        if not network_view.isRun():
            raise XrtError(f"{what}: a session's view is a run of consecutive ops; view({network_view.opIds()}) "
                           "is for a backend (Backend.Create, init): give the session network.view(0)")
        return network_view

    @staticmethod
    def _new(obj):
        s = wrap(Session, obj)
        s._keep = []
        s._errors = []
        return s

    @staticmethod
    def Create(backend_classes, network_view, devices):
        network_view = Session._view(network_view, "Session.Create")
        need_list(backend_classes, type, "backend_types", "Session.Create")
        for i, c in enumerate(backend_classes):
            if not (issubclass(c, Backend) and c._vendor_name):
                raise TypeError(f"Session.Create: argument backend_types[{i}] must be a backend class "
                                f"(ZG330Backend, HostBackend …), not {c.__name__}")
        need_list(devices, (Device, HostDevice, type(None)), "devices", "Session.Create")
        names = [c._vendor_name for c in backend_classes]
        devs = [d._obj if d is not None else None for d in devices]
        if len(devs) != len(names):
            raise XrtError(f"Session.Create: {len(names)} backends but {len(devs)} devices")
        return Session._new(call(Xrt.Session.new, network_view._obj, names, devs))

    @staticmethod
    def Init():
        unsupported("Session.Init() (an empty session: use Session.Create, CreateWithBackends or CreateByOrder)")

    def clone(self, depth=1):
        """The same session (depth 1: shared); fork() makes a second one for another thread."""
        s = Session._new(self._obj)
        s._keep = self._keep
        return s

    @staticmethod
    def CreateWithBackends(network_view, backends):
        """A session of backends already initialised (Backend.Create, or Init() + init()) and
        configured (userReuseSegment …): each op goes to the first of them that owns it;
        nothing is made for the session (give the HostBackend too when the view has host ops)."""
        network_view = Session._view(network_view, "Session.CreateWithBackends")
        objs = _backend_objs(backends, "Session.CreateWithBackends")
        s = Session._new(call(Xrt.Session.new_with_backends, network_view._obj, objs))
        s._keep.append(list(backends))
        return s

    @staticmethod
    def CreateByOrder(network_view, backends, devices):
        """Backends of Init() (or initialised ones), one device each, in priority order: the
        session initialises each on @network_view and its device, then binds the ops."""
        network_view = Session._view(network_view, "Session.CreateByOrder")
        need_list(backends, Backend, "backends", "Session.CreateByOrder")
        need_list(devices, (Device, HostDevice, type(None)), "devices", "Session.CreateByOrder")
        if len(backends) != len(devices):
            raise XrtError(f"Session.CreateByOrder: {len(backends)} backends but {len(devices)} devices")
        board = next((d for d in devices if isinstance(d, Device)), None)
        for b, d in zip(backends, devices):
            if not b.isInitialised():
                b.init(network_view, d if isinstance(d, Device) else board)
        return Session.CreateWithBackends(network_view, backends)

    @staticmethod
    def CreateWithSnapshot(path, backends=None, devices=None, network=None, device=None):
        """CreateWithSnapshot(file, [BuyiBackend, HostBackend], [device, HostDevice.Default()]) as
        the manual writes it, or with network= and device= keywords. The backends are the ones
        the snapshot records; the board is the first device that is not the host (or, with
        none, the default board of the recorded backend)."""
        if device is None and devices:
            device = next((d for d in devices if d is not None and getattr(d, "_obj", None) is not None), None)
        return Session._new(call(Xrt.Session.new_from_snapshot, str(path), network._obj if network else None,
                                 device._obj if device else None))

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

    @property
    def network_view(self):
        return self.networkView()

    def network(self):
        return wrap(xir.Network, self._obj.get_network())

    def apply(self):
        call(self._obj.apply)

    def isApplied(self):
        return self._obj.is_applied()

    def getForwards(self):
        """ForwardOps as the vendor's Session.getForwards returns them, in execution order:
        [(op, backend, forward, input v_ids, output v_ids)]. op is the step's xir.Operation
        (a merged launch: an xir.MergedOperation, its hardops in mergeFrom()); backend the
        xrt.Backend that runs it; forward the step's FForwardOp, called as
        forward(op, inputs, outputs, backend) -> [Tensor]: it runs that step alone on
        @inputs (one tensor per input v_id; the Input op: the view's inputs) and returns its
        outputs (into @outputs when that list is not empty), without the session's
        callbacks, logs, dumps or profile. After apply()."""
        if not self._obj.is_applied():
            raise XrtError(f"{self._obj.get_network().get_path()}: getForwards before apply() (apply the session first)")
        net = self._obj.get_network()
        out = []
        for i in range(self._obj.get_n_forwards()):
            f = self._obj.get_forward(i)
            op = net.get_op_by_id(f.op_id)
            op = wrap(xir.Operation, op) if op is not None else xir.MergedOperation._of_step(net, f)
            out.append((op, wrap(Backend, f.backend), self._forward_func(i, f.op_id),
                        list(f.get_input_ids()), list(f.get_output_ids())))
        return out

    def _forward_func(self, index, op_id):
        what = f"Session.getForwards: the forward function of op {op_id}"

        def forward(op, inputs, outputs=(), backend=None):
            need(op, xir.Operation, "op", what)
            need(backend, (Backend, type(None)), "backend", what)
            if op.op_id != op_id:
                raise XrtError(f"{what} runs that op, not op {op.op_id}")
            results = [wrap(Tensor, t) for t in call(self._obj.forward_step, index, _tensors(inputs, what=what))]
            if not outputs:
                return results
            need_list(outputs, Tensor, "outputs", what)
            if len(outputs) != len(results):
                raise XrtError(f"{what}: {len(outputs)} output tensor(s) given, the step has {len(results)}")
            for o, r in zip(outputs, results):
                o.write(0, r.read())
            return list(outputs)

        return forward

    def _run(self, func, *args):
        """Runs a forward-like call; an exception raised by a callback during it reaches the
        caller (after the call, or in place of its own error)."""
        self._errors = []
        try:
            result = call(func, *args)
        except XrtError:
            if self._errors:
                raise self._errors[0]
            raise
        if self._errors:
            raise self._errors[0]
        return result

    def forward(self, inputs, outputs=None):
        if outputs is None:
            return [wrap(Tensor, t) for t in self._run(self._obj.forward, _tensors(inputs))]
        self._run(self._obj.forward_into, _tensors(inputs), _tensors(outputs, "outputs"))
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
        need(op_id, int, "op_id", "Session.stepTo")
        return [wrap(Tensor, t) for t in self._run(self._obj.step_to, op_id,
                                                   _tensors(inputs, what="Session.stepTo") if inputs else None)]

    def sub(self, start, end=None):
        need(start, int, "start_index", "Session.sub")
        need(end, (int, type(None)), "end_index", "Session.sub")
        s = Session._new(call(self._obj.sub, start, _G_MAXINT if end is None else end))
        s._keep = self._keep
        return s

    def fork(self):
        s = Session._new(call(self._obj.fork))
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

    def _callback(self, setter, func, what):
        if func is None:
            setter(None)
            return
        if not callable(func):
            raise TypeError(f"Session.{what}: argument func must be callable (session, op, backend, outputs), "
                            f"not {type(func).__name__}")
        net = self._obj.get_network()

        def trampoline(session, step, outputs, *_data):
            if self._errors:   # a callback already failed: the forward's caller gets that error
                return
            try:
                op = net.get_op_by_id(step.op_id)
                op = wrap(xir.Operation, op) if op is not None else xir.MergedOperation._of_step(net, step)
                func(self, op, wrap(Backend, step.backend), [wrap(Tensor, t) for t in outputs])
            except BaseException as e:  # noqa: B902 (handed to forward()'s caller)
                self._errors.append(e)

        self._keep.append(trampoline)
        setter(trampoline)

    def setPreCallBack(self, func):
        """func(session, op, backend, outputs) before each step (a merged launch: op is an
        xir.MergedOperation, its hardops in mergeFrom()); an exception it raises reaches
        forward()'s caller."""
        self._callback(self._obj.set_pre_callback_full, func, "setPreCallBack")

    def setPostCallBack(self, func):
        """func(session, op, backend, outputs) after each step; exceptions as setPreCallBack."""
        self._callback(self._obj.set_post_callback_full, func, "setPostCallBack")

    def __repr__(self):
        return f"xrt.Session({self.network().name()!r})"


# help(): each wrapper's docstring, then the runtime's documentation of what it calls

# ---- pipelines: several networks on one board -------------------------------------------------

class Pipeline:
    """Several networks on one board from a pipeline file (TOML: the networks or views of one,
    the segments they share — userReuseSegment — and the connections — userConnectNetwork;
    the README's "Several networks on one board"). Each network is deployed as the vendor's
    API deploys it: a Session of its own (``session(name)``), on one shared device.

        p = Pipeline("yolov5s_pipeline.toml")
        p.apply()
        outputs = p.forward()                    # {network name: [Tensor, ...]}
        report = p.report()                      # the pipeline report, as a dict
    """

    def __init__(self, path):
        import os
        need(path, (str, os.PathLike), "path", "Pipeline")
        self._obj = call(Xrt.Pipeline.new_from_file, os.fspath(path))

    @staticmethod
    def Create(path):
        return Pipeline(path)

    def name(self):
        return self._obj.get_name()

    def networks(self):
        """The networks' names, in the order a pass runs them."""
        return [self._obj.get_network_name(i) for i in range(self._obj.get_n_networks())]

    def _index(self, name, what):
        names = self.networks()
        if name not in names:
            raise XrtError(f"Pipeline.{what}: \"{name}\" is not a network of the pipeline ({', '.join(names)})")
        return names.index(name)

    def forceStaged(self):
        """Every connection staged through its chunk instead of zero-copy (before apply)."""
        self._obj.force_staged()

    def setNetworkOptions(self, name, mergeHardOp=True, etmOptimize=True, ocmOptimize=None):
        """Network @name's ZG330Backend options instead of the file's (before apply); the other
        networks keep theirs. @ocmOptimize: a zg330backend.OcmOpt (None: BEST_SCORE), as
        ZG330Backend.ocmOptimize takes it."""
        need(name, str, "name", "Pipeline.setNetworkOptions")
        self._index(name, "setNetworkOptions")
        if ocmOptimize is None:
            from zg330backend import OcmOpt
            ocmOptimize = OcmOpt.BEST_SCORE
        need(ocmOptimize, int, "ocmOptimize", "Pipeline.setNetworkOptions")
        call(self._obj.set_network_options, name, bool(mergeHardOp), bool(etmOptimize), int(ocmOptimize))

    def apply(self, device_url=None):
        """Opens the board (default: the file's device, else the first network's compile
        target) and applies every network with its shared segments and connections."""
        if device_url is not None:
            need(device_url, str, "device_url", "Pipeline.apply")
        call(self._obj.apply, device_url)

    def enableTimeProfile(self, enable=True):
        self._obj.enable_time_profile(bool(enable))

    def inputs(self):
        """The inputs no connection feeds, as (network name, xir.Value), in the order
        forward(inputs) takes them."""
        names = self.networks()
        return [(names[self._obj.get_free_input_network(i)], wrap(xir.Value, v))
                for i, v in enumerate(self._obj.get_free_inputs())]

    def forward(self, inputs=None, iteration=0):
        """One pass: every network forwarded once, a connected input given what its upstream
        network produced. @inputs: a Tensor per free input (inputs()), or None for the
        seeded inputs of @iteration. Returns {network name: [output Tensor, ...]}."""
        tensors = None if inputs is None else _tensors(inputs, "inputs", "Pipeline.forward")
        call(self._obj.run, tensors, int(iteration))
        return {n: [wrap(Tensor, t) for t in (self._obj.get_outputs(i) or [])] for i, n in enumerate(self.networks())}

    def session(self, name):
        """The Session of network @name (after apply): the vendor's per-network object."""
        d = self._obj.get_deployment(self._index(name, "session"))
        s = d.get_session() if d is not None else None
        if s is None:
            raise XrtError(f"Pipeline.session(\"{name}\") before apply()")
        return Session._new(s)

    def report(self):
        """The pipeline report (every network's deploy report, shares, connections with their
        modes, the board's ETM chunks by owner, the ETM apart and saved, the pass's time)."""
        import json
        return json.loads(call(self._obj.report_to_text))

    def reportApart(self, iteration=0):
        """The same networks run apart, each alone on a simulated board with the same options
        and one profiled forward (the free inputs seeded by @iteration): a pipeline report of
        its own, whose "time" and "etm" compare with report()'s (what connecting and sharing
        on one board saved)."""
        import json
        return json.loads(call(self._obj.apart_to_text, int(iteration)))

document(MemChunk, "Xrt", "xrt_mem_chunk_", {
    "addr": "get_addr", "size": "get_size", "memRegion": "get_region", "isOn": "is_on",
    "read": "read_bytes", "write": "write", "copyFrom": "copy_from", "free": "free"})
document(MemRegion, "Xrt", "xrt_mem_region_", {
    "name": "get_name", "malloc": "malloc", "mallocAt": "malloc_at", "device": "get_device",
    "memManager": "get_manager"})
document(Device, "Xrt", "xrt_device_", {
    "Open": "open", "close": "close", "url": "get_url", "reset": "reset", "check": "check",
    "version": "get_version", "setWaitTime": "set_wait_time", "defaultMemRegion": "get_default_mem_region",
    "getMemRegion": "get_mem_region", "setDefaultMemRegion": "set_default_mem_region",
    "malloc": "malloc", "showStatus": "get_status_text"})
document(Backend, "Xrt", "xrt_backend_", {
    "Create": "new", "name": "get_name", "apply": "apply", "isApplied": "is_applied", "fork": "fork",
    "isOpSupported": "owns_op"})
document(Session, "Xrt", "xrt_session_", {
    "Create": "new", "CreateWithBackends": "new_with_backends", "CreateWithSnapshot": "new_from_snapshot", "backendBindings": "get_op_backend",
    "networkView": "get_view", "network": "get_network", "apply": "apply", "isApplied": "is_applied",
    "getForwards": "get_forwards", "forward": ("forward", "forward_into"), "stepTo": "step_to", "sub": "sub",
    "fork": "fork", "setLogIO": "set_log_io", "setLogTime": "set_log_time", "setDumpOutputs": "set_dump_outputs",
    "enableTimeProfile": "enable_time_profile", "timeProfileResults": "get_time_profile",
    "totalTime": "get_total_time", "compareWithHost": "compare_with_host", "dumpSnapshot": "dump_snapshot", "setPreCallBack": "set_pre_callback",
    "setPostCallBack": "set_post_callback"})


def __getattr__(name):
    """xrt.ZG330Device and xrt.BuyiDevice, as the vendor's module has them (they live in
    zg330backend, which imports this module)."""
    if name in ("ZG330Device", "BuyiDevice"):
        import zg330backend
        return getattr(zg330backend, name)
    raise AttributeError(f"module 'xrt' has no attribute {name!r}")
