"""xrt.Tensor: a value's type and the memory that holds its bytes, with numpy interoperation.

    t = Tensor(network.inputs()[0])                   # no data yet
    t = Tensor.fromNumpy(array, network.inputs()[0])  # a host tensor holding the array's bytes
    a = numpy.asarray(t)                              # host tensors: no copy
    f = t.dequantize()                                # Q -> F with the value's scales
"""
import ctypes

import xir
from _zhuge import GLib, Xir, Xrt, XrtError, call, document, unsupported, wrap

try:
    import numpy
except ImportError:  # numpy is optional: the rest works without it
    numpy = None

__all__ = ["Tensor"]

# storage dtype text -> numpy dtype
_NP = {"@sint(8)": "int8", "@uint(8)": "uint8", "@sint(16)": "int16", "@uint(16)": "uint16",
       "@sint(32)": "int32", "@uint(32)": "uint32", "@sint(64)": "int64", "@uint(64)": "uint64",
       "@fp(16)": "float16", "@fp(32)": "float32", "@fp(64)": "float64"}
_FROM_NP = {v: k for k, v in _NP.items()}


def _value_obj(v):
    return v._obj if isinstance(v, xir.Value) else v


class Tensor:
    """The vendor's Tensor: Tensor(dtype), Tensor(dtype, chunk, offset=0) or Tensor(value),
    where dtype/value is an xir.Value (a network's value or Tensor.makeDType's)."""

    def __init__(self, dtype, chunk=None, offset=0):
        self._obj = call(Xrt.Tensor.new_for_dtype, _value_obj(dtype), chunk._obj if chunk else None, offset)

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
        """A host tensor holding a copy of @array's bytes, typed as @dtype (a network value
        whose storage bytes it must have) or, without one, by the array's dtype and shape."""
        if numpy is None:
            raise XrtError("Tensor.fromNumpy needs numpy")
        a = numpy.ascontiguousarray(array)
        if dtype is None:
            storage = _FROM_NP.get(a.dtype.name)
            if storage is None:
                raise XrtError(f"Tensor.fromNumpy: numpy dtype {a.dtype.name} has no XIR storage type")
            dtype = Tensor.makeDType(storage, a.shape)
        return Tensor.fromBytes(a.tobytes(), dtype)

    # ---- facts ----

    def dtype(self):
        return wrap(xir.Value, self._obj.get_value())

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

    def memRegion(self):
        from xrt import MemRegion
        return wrap(MemRegion, self._obj.get_region())

    def isOn(self, region):
        return self._obj.is_on(region._obj)

    def isReady(self):
        return self._obj.is_ready()

    def setReady(self, ready):
        self._obj.set_ready(bool(ready))
        return self

    def waitForReady(self, timeout, sleep=None):
        ms = int(timeout.total_seconds() * 1000) if hasattr(timeout, "total_seconds") else int(timeout)
        return call(self._obj.wait_ready, ms)

    # ---- data ----

    def mallocOn(self, region):
        call(self._obj.malloc_on, region._obj)
        return self

    def setData(self, chunk, offset=0):
        call(self._obj.set_data, chunk._obj, offset)
        return self

    def read(self, dest=None, src_offset=0, byte_size=None):
        data = call(self._obj.get_bytes).get_data()
        end = len(data) if byte_size is None else src_offset + byte_size
        data = data[src_offset:end]
        if dest is not None:
            memoryview(dest).cast("B")[:len(data)] = data
        return data

    def tobytes(self):
        return call(self._obj.get_bytes).get_data()

    def copyData(self, buf):
        data = bytes(memoryview(buf).cast("B"))
        call(self._obj.write, data)

    def write(self, offset, buf, byte_size=None):
        if offset != 0:
            unsupported("Tensor.write at an offset other than 0 (use copyFrom)")
        data = bytes(memoryview(buf).cast("B"))
        call(self._obj.write, data if byte_size is None else data[:byte_size])

    def copyFrom(self, dest_offset, src, src_offset, byte_size):
        call(self._obj.copy_from, dest_offset, src._obj, src_offset, byte_size)

    def fill(self, value):
        """Fills with a float value (converted to the storage type) or, for bytes, the pattern."""
        if isinstance(value, (bytes, bytearray)):
            call(self._obj.fill_bytes, bytes(value))
        else:
            call(self._obj.fill_float, float(value))
        return self

    def reshape(self, shape):
        return wrap(Tensor, call(self._obj.reshape, list(shape)))

    def setDType(self, dtype):
        return wrap(Tensor, call(self._obj.with_dtype, _value_obj(dtype)))

    def to(self, region):
        return wrap(Tensor, call(self._obj.to, region._obj))

    def clone(self, depth=1):
        return wrap(Tensor, call(self._obj.clone))

    def dequantize(self):
        return wrap(Tensor, call(self._obj.dequantize))

    def quantize(self, dtype):
        return wrap(Tensor, call(self._obj.quantize, _value_obj(dtype)))

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
            raise XrtError("Tensor.numpy needs numpy")
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
    "clone": "clone", "dequantize": "dequantize", "quantize": "quantize"})
