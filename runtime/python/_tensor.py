"""xrt.Tensor: a value's type and the memory that holds its bytes, with numpy interoperation.

    t = Tensor(network.inputs()[0])                   # no data yet
    t = Tensor.fromNumpy(array, network.inputs()[0])  # a host tensor holding the array's bytes
    a = numpy.asarray(t)                              # host tensors: no copy
    f = t.dequantize()                                # Q -> F with the value's scales
"""
import ctypes

import xir
from _zhuge import GLib, Xir, Xrt, XrtError, call, document, need, unsupported, wrap

try:
    import numpy
except ImportError:  # numpy is optional: the rest works without it
    numpy = None

_NUMPY_HINT = None
if numpy is None:
    import sys as _sys
    import warnings as _warnings
    _NUMPY_HINT = (f"the Python running this ({_sys.executable}) has no numpy; the system's has "
                   "(apt install python3-numpy); a venv made with --system-site-packages sees it")
    _warnings.warn("xrt: " + _NUMPY_HINT + " (Tensor.numpy, Tensor.fromNumpy and numpy buffers are "
                   "unavailable; the rest works)", RuntimeWarning, stacklevel=2)

__all__ = ["Tensor"]

# storage dtype text -> numpy dtype
_NP = {"@sint(8)": "int8", "@uint(8)": "uint8", "@sint(16)": "int16", "@uint(16)": "uint16",
       "@sint(32)": "int32", "@uint(32)": "uint32", "@sint(64)": "int64", "@uint(64)": "uint64",
       "@fp(16)": "float16", "@fp(32)": "float32", "@fp(64)": "float64"}
_FROM_NP = {v: k for k, v in _NP.items()}


def _value_obj(v):
    return v._obj if isinstance(v, xir.Value) else v


def _storage_of(dtype):
    return dtype._obj.get_storage_text()


def _buffer_bytes(b, call_name):
    """The bytes of a buffer (numpy array, bytes, bytearray, memoryview …) and its numpy
    dtype name (None for plain bytes)."""
    if numpy is not None and isinstance(b, numpy.ndarray):
        return numpy.ascontiguousarray(b).tobytes(), b.dtype.name, list(b.shape)
    try:
        m = memoryview(b)
    except TypeError:
        raise TypeError(f"{call_name}: argument b must be a buffer (a numpy array, bytes, bytearray …) "
                        f"or an xir.TensorType, not {type(b).__name__}") from None
    np_name = None
    if m.format not in ("B", "b", "c") and numpy is not None:
        np_name = numpy.dtype(m.format).name
    return m.tobytes(), np_name, list(m.shape or [m.nbytes])


def _host_from_buffer(b, dtype, call_name):
    """A host tensor of @dtype holding @b's bytes; @dtype None: typed by the buffer."""
    data, np_name, shape = _buffer_bytes(b, call_name)
    if dtype is None or isinstance(dtype, xir.Layout):
        storage = _FROM_NP.get(np_name or "uint8")
        if storage is None:
            raise TypeError(f"{call_name}: numpy dtype {np_name} has no XIR storage type")
        layout = str(dtype) if dtype is not None else "*"
        if layout != "*" and len(layout) != len(shape):
            raise XrtError(f"{call_name}: layout {layout} has {len(layout)} axes, the buffer's shape {shape} "
                           f"has {len(shape)}")
        dtype = xir.TensorType(storage, shape, layout)
    storage = _storage_of(dtype)
    if np_name is not None and _NP.get(storage) != np_name:
        raise TypeError(f"{call_name}: the buffer holds {np_name} but dtype stores {storage} "
                        f"({_NP.get(storage, 'no numpy type')}): convert it first, e.g. array.astype(numpy."
                        f"{_NP.get(storage, 'uint8')}) or Tensor(array).quantize(dtype)")
    if len(data) != dtype.storageBytes():
        raise XrtError(f"{call_name}: the buffer has {len(data)} bytes, dtype {storage} {dtype.shape()} "
                       f"(v_id {dtype.v_id}) needs {dtype.storageBytes()}")
    return call(Xrt.Tensor.new_from_bytes, dtype._obj, GLib.Bytes.new(data))


class Tensor:
    """The vendor's Tensor, with its overloads:
        Tensor(dtype)                            no data yet (mallocOn, setData)
        Tensor(dtype, chunk, offset=0, check_func=None)
        Tensor(dtype, check_func)
        Tensor(value)                            a network value's type
        Tensor(b, dtype)                         a host tensor holding a copy of buffer b
        Tensor(b, layout=Layout("*"))            typed by the buffer (numpy dtype and shape)
    where dtype is an xir.TensorType or xir.Value (network.inputOp()[0].dtype() …)."""

    def __init__(self, *args, **kwargs):
        self._check = None
        if not args and not kwargs:
            raise TypeError("xrt.Tensor(): give a dtype (Tensor(dtype), Tensor(dtype, chunk, offset)) or a "
                            "buffer (Tensor(b, dtype), Tensor(b)); a tensor without a type cannot hold data")
        if args:
            first = args[0]
        else:
            key = next((k for k in ("b", "value", "dtype") if k in kwargs), None)
            if key is None:
                raise TypeError(f"xrt.Tensor(): unexpected arguments {list(kwargs)} (give dtype= or b=)")
            first = kwargs.pop(key)
        rest = list(args[1:])
        if isinstance(first, xir.Value):
            chunk = rest.pop(0) if rest else kwargs.pop("chunk", None)
            check_func = None
            if chunk is not None and callable(chunk) and not hasattr(chunk, "_obj"):
                check_func, chunk = chunk, None
            offset = rest.pop(0) if rest else kwargs.pop("offset", 0)
            check_func = rest.pop(0) if rest else kwargs.pop("check_func", check_func)
            if rest or kwargs:
                raise TypeError(f"xrt.Tensor(dtype, chunk, offset, check_func): unexpected arguments "
                                f"{rest or list(kwargs)}")
            from xrt import MemChunk
            need(chunk, (MemChunk, type(None)), "chunk", "xrt.Tensor")
            need(offset, int, "offset", "xrt.Tensor")
            self._obj = call(Xrt.Tensor.new_for_dtype, first._obj, chunk._obj if chunk else None, offset)
            if check_func is not None:
                self.setCheckFunc(check_func)
            return
        second = rest.pop(0) if rest else kwargs.pop("dtype", kwargs.pop("layout", None))
        if rest or kwargs:
            raise TypeError(f"xrt.Tensor(b, dtype): unexpected arguments {rest or list(kwargs)}")
        need(second, (xir.Value, xir.Layout, type(None)), "dtype", "xrt.Tensor(b, dtype)")
        self._obj = _host_from_buffer(first, second, "xrt.Tensor(b, dtype)")

    @staticmethod
    def Init():
        unsupported("Tensor.Init() (a tensor without a type: use Tensor(dtype))")

    # ---- construction ----

    @staticmethod
    def makeDType(storage, shape, layout="*", scales=None, scale_axis=-1, zero_points=None):
        """A standalone type: storage "@sint(8)" …, shape, layout, optional per-channel scales."""
        return wrap(xir.Value, call(Xrt.Tensor.make_dtype, storage, layout, list(shape), scale_axis,
                                    list(scales or []), list(zero_points or [])))

    @staticmethod
    def fromBytes(data, dtype):
        return wrap(Tensor, call(Xrt.Tensor.new_from_bytes, _value_obj(dtype), GLib.Bytes.new(bytes(data))))

    @staticmethod
    def fromNumpy(array, dtype=None):
        """A host tensor holding a copy of @array's bytes, typed as @dtype (whose storage type
        and size the array must have: a float32 array is not taken as uint8 bytes) or,
        without one, by the array's dtype and shape."""
        if numpy is None:
            raise XrtError("Tensor.fromNumpy needs numpy: " + _NUMPY_HINT)
        need(array, numpy.ndarray, "array", "Tensor.fromNumpy")
        need(dtype, (xir.Value, type(None)), "dtype", "Tensor.fromNumpy")
        return wrap(Tensor, _host_from_buffer(array, dtype, "Tensor.fromNumpy"))

    # ---- facts ----

    def dtype(self):
        return wrap(xir.TensorType, self._obj.get_value())

    def shape(self):
        return list(self._obj.get_shape())

    def size(self):
        return self._obj.get_size()

    def offset(self):
        return self._obj.get_offset()

    def hasData(self):
        return self._obj.has_data()

    def chunk(self):
        from xrt import MemChunk
        return wrap(MemChunk, self._obj.get_chunk())

    def data(self):
        """The MemPtr of the tensor's first byte (its chunk's begin plus the offset)."""
        from xrt import MemChunk, MemPtr
        c = self._obj.get_chunk()
        if c is None:
            raise XrtError(f"Tensor.data: the tensor (v_id {self._obj.get_value().v_id}) has no data")
        p = MemPtr._of_chunk(wrap(MemChunk, c))
        off = self._obj.get_offset()
        p._addr = None if p._addr is None else p._addr + off
        p._cptr = None if p._cptr is None else p._cptr + off
        return p

    def memRegion(self):
        from xrt import MemRegion
        return wrap(MemRegion, self._obj.get_region())

    def isOn(self, region):
        return self._obj.is_on(region._obj)

    def isReady(self):
        """Ready when written; with a check function (setCheckFunc), when it returns True for
        the tensor's device (the host's for a host tensor)."""
        if getattr(self, "_check", None) is not None and not self._obj.is_ready():
            from xrt import Device, HostDevice
            region = self._obj.get_region()
            dev = region.get_device() if region is not None else None
            if self._check(wrap(Device, dev) if dev is not None else HostDevice.Default()):
                self._obj.set_ready(True)
        return self._obj.is_ready()

    def setCheckFunc(self, check_func):
        """check_func(device) -> bool: isReady/waitForReady ask it until it says True."""
        if not callable(check_func):
            raise TypeError(f"Tensor.setCheckFunc: argument check_func must be callable, not "
                            f"{type(check_func).__name__}")
        self._check = check_func
        return self

    def setReady(self, ready):
        self._obj.set_ready(bool(ready))
        return self

    def waitForReady(self, timeout, sleep=None):
        ms = int(timeout.total_seconds() * 1000) if hasattr(timeout, "total_seconds") else int(timeout)
        if getattr(self, "_check", None) is not None:
            import time
            end = time.monotonic() + ms / 1000.0
            pause = sleep.total_seconds() if hasattr(sleep, "total_seconds") else float(sleep or 0)
            while not self.isReady():
                if time.monotonic() >= end:
                    return False
                time.sleep(pause if pause > 0 else 0.001)
            return True
        return call(self._obj.wait_ready, ms)

    # ---- data ----

    def mallocOn(self, region):
        from xrt import MemRegion
        need(region, MemRegion, "mregion", "Tensor.mallocOn")
        call(self._obj.malloc_on, region._obj)
        return self

    def setData(self, chunk, offset=0):
        from xrt import MemChunk
        need(chunk, MemChunk, "chunk", "Tensor.setData")
        need(offset, int, "offset", "Tensor.setData")
        call(self._obj.set_data, chunk._obj, offset)
        return self

    def _range(self, what, offset, byte_size):
        """Checks [offset, offset + byte_size) against the tensor's bytes; byte_size None: to the end."""
        need(offset, int, "offset", f"Tensor.{what}")
        size = self._obj.get_size()
        n = size - offset if byte_size is None else byte_size
        need(n, int, "byte_size", f"Tensor.{what}")
        if offset < 0 or n < 0 or offset + n > size:
            raise XrtError(f"Tensor.{what}: [{offset}, {offset + n}) is outside the {size} bytes of the tensor "
                           f"(v_id {self._obj.get_value().v_id})")
        if not self._obj.has_data():
            raise XrtError(f"Tensor.{what}: the tensor (v_id {self._obj.get_value().v_id}) has no data "
                           f"(mallocOn or setData first)")
        return n

    def read(self, dest=None, src_offset=0, byte_size=None):
        """Copies [src_offset, src_offset + byte_size) into @dest (a writable buffer) and
        returns the bytes; a range past the tensor's end is an error."""
        n = self._range("read", src_offset, byte_size)
        data = call(self._obj.get_chunk().read_bytes, self._obj.get_offset() + src_offset, n).get_data()
        if dest is not None:
            m = memoryview(dest).cast("B")
            if len(m) < n:
                raise XrtError(f"Tensor.read: dest holds {len(m)} bytes, {n} are read")
            m[:n] = data
        return data

    def tobytes(self):
        return call(self._obj.get_bytes).get_data()

    def copyData(self, buf):
        data = bytes(memoryview(buf).cast("B"))
        call(self._obj.write, data)

    def write(self, offset, buf, byte_size=None):
        """Writes @byte_size bytes of @buf (all of it by default) at @offset of the tensor."""
        data = bytes(memoryview(buf).cast("B"))
        if byte_size is not None:
            if byte_size > len(data):
                raise XrtError(f"Tensor.write: byte_size {byte_size} is more than the {len(data)} bytes given")
            data = data[:byte_size]
        self._range("write", offset, len(data))
        if offset == 0 and len(data) == self._obj.get_size():
            call(self._obj.write, data)
        else:
            call(self._obj.get_chunk().write, self._obj.get_offset() + offset, data)
            self._obj.set_ready(True)

    def copyFrom(self, dest_offset, src, src_offset, byte_size):
        call(self._obj.copy_from, dest_offset, src._obj, src_offset, byte_size)

    def fill(self, value):
        """fill(f): element i becomes f(i) (converted to the storage type: quantised with the
        scales, rounded, saturated); fill(x): every element x; fill(bytes): the byte pattern."""
        if isinstance(value, (bytes, bytearray)):
            call(self._obj.fill_bytes, bytes(value))
        elif callable(value):
            n = self._obj.get_value().n_elements
            f32 = xir.TensorType(xir.FloatType.FP32(), self.shape(), self._obj.get_value().get_layout_text())
            import struct
            floats = Tensor(struct.pack(f"<{n}f", *(float(value(i)) for i in range(n))), f32)
            if self._obj.get_value().get_storage_text() == "@fp(32)":
                src = floats
            else:
                src = wrap(Tensor, call(floats._obj.quantize, self._obj.get_value()))
            call(self._obj.copy_from, 0, src._obj, 0, self._obj.get_size())
        else:
            call(self._obj.fill_float, float(value))
        return self

    def reshape(self, shape):
        return wrap(Tensor, call(self._obj.reshape, list(shape)))

    def setDType(self, dtype):
        """Changes this tensor's type in place (the bytes stay; the storage size must too) and
        returns it, as the vendor's setDType."""
        need(dtype, xir.Value, "dtype", "Tensor.setDType")
        self._obj = call(self._obj.with_dtype, dtype._obj)
        return self

    # ---- the vendor's dump formats ----

    def dump(self, os, format=""):
        """Writes the tensor to @os (a binary stream: io.BytesIO, a file opened "wb"; or a
        path) in @format: SFB SFT SQB SQT HQB HQT (H/S layout, F/Q numbers, B/T binary or
        text), the bytes of a setDumpOutputs file in that format; "" (the manual's default):
        the bytes in memory as they are."""
        need(format, str, "format", "Tensor.dump")
        data = call(Xrt.Tensor.dump, self._obj, format).get_data()
        if isinstance(os, (str, bytes)) or hasattr(os, "__fspath__"):
            with open(os, "wb") as f:
                f.write(data)
        elif hasattr(os, "write"):
            os.write(data)
        else:
            raise TypeError(f"Tensor.dump: argument os must be a binary stream or a path, not {type(os).__name__}")

    def convert(self, format):
        """A host tensor of this one in binary @format: "SFB" (software layout, float32),
        "SQB" (software layout, the stored integers), "HQB" (a copy): layout H -> S and Q -> F."""
        need(format, str, "format", "Tensor.convert")
        return wrap(Tensor, call(Xrt.Tensor.convert, self._obj, format))

    def toSoftwareLayout(self):
        """convert("SQB") for a quantised tensor, "SFB" for a float one: NHWC without padding."""
        quant = self._obj.get_value().get_storage_text() not in ("@fp(32)", "@fp(16)", "@bf(16)", "@fp(64)")
        return self.convert("SQB" if quant else "SFB")

    def to(self, region):
        from xrt import MemRegion
        need(region, MemRegion, "mregion", "Tensor.to")
        return wrap(Tensor, call(self._obj.to, region._obj))

    def clone(self, depth=1):
        return wrap(Tensor, call(self._obj.clone))

    def dequantize(self):
        return wrap(Tensor, call(self._obj.dequantize))

    def quantize(self, dtype):
        need(dtype, xir.Value, "dtype", "Tensor.quantize")
        return wrap(Tensor, call(self._obj.quantize, dtype._obj))

    # ---- numpy ----

    def _np_dtype(self):
        text = self._obj.get_value().get_storage_text()
        name = _NP.get(text)
        if name is None:
            raise XrtError(f"Tensor: storage type {text} has no numpy dtype")
        return numpy.dtype(name)

    def numpy(self, copy=False):
        """The tensor as a numpy array of its storage type and shape. A host tensor is seen
        without a copy (writes go to the tensor) unless @copy; other regions are copied."""
        if numpy is None:
            raise XrtError("Tensor.numpy needs numpy: " + _NUMPY_HINT)
        dt = self._np_dtype()
        addr = self._obj.get_host_address() if hasattr(self._obj, "get_host_address") else 0
        if addr and not copy:
            raw = (ctypes.c_uint8 * self.size()).from_address(addr)
            raw.tensor = self._obj   # the array's base keeps the tensor (and its bytes) alive
            return numpy.frombuffer(raw, dtype=dt).reshape(self.shape())
        return numpy.frombuffer(self.tobytes(), dtype=dt).reshape(self.shape()).copy()

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __repr__(self):
        return f"xrt.Tensor(shape={self.shape()}, {self.size()} bytes)"


# help(): each wrapper's docstring, then the runtime's documentation of what it calls
document(Tensor, "Xrt", "xrt_tensor_", {
    "__init__": "new_for_dtype", "makeDType": "make_dtype", "fromBytes": "new_from_bytes", "dtype": "get_value",
    "shape": "get_shape", "size": "get_size", "offset": "get_offset", "hasData": "has_data", "chunk": "get_chunk",
    "memRegion": "get_region", "isOn": "is_on", "isReady": "is_ready", "setReady": "set_ready",
    "waitForReady": "wait_ready", "mallocOn": "malloc_on", "setData": "set_data", "read": "get_bytes",
    "tobytes": "get_bytes", "copyData": "write", "write": "write", "copyFrom": "copy_from",
    "fill": ("fill_bytes", "fill_float"), "reshape": "reshape", "setDType": "with_dtype", "to": "to",
    "clone": "clone", "dequantize": "dequantize", "quantize": "quantize", "dump": "dump", "convert": "convert"})
