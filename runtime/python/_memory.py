"""xrt's memory and register layer (the vendor's xrt.MemPtr, PtrType, MemManager, RegRegion;
XRT manual §1.5, §2.1-2.3): pointers, a region's allocator and its chunks, the register space
of a device. Imported by xrt, which has the MemChunk and MemRegion these hand out."""
import enum

from _zhuge import Xrt, XrtError, call, need, wrap

__all__ = ["MemPtr", "PtrType", "MemManager", "RegRegion"]


def _chunk_class():
    from xrt import MemChunk
    return MemChunk


class PtrType(enum.IntEnum):
    """The kind of a MemPtr: CPTR (a host C pointer), ADDR (a device address), BOTH."""
    CPTR = 0
    ADDR = 1
    BOTH = 2


class MemPtr:
    """A memory pointer: MemPtr(addr) (ADDR), MemPtr(cptr_buffer) (CPTR: the buffer's
    address), MemPtr(cptr_buffer, addr) (BOTH); MemPtr.NullPtr()."""

    def __init__(self, *args):
        self._cptr = None
        self._addr = None
        self._keep = None
        if len(args) == 1 and isinstance(args[0], MemPtr):
            self._cptr, self._addr, self._keep = args[0]._cptr, args[0]._addr, args[0]._keep
            return
        if len(args) == 1 and args[0] is None:   # MemPtr(nullptr)
            return
        if len(args) == 1 and isinstance(args[0], int):
            self._addr = args[0]
            return
        if len(args) in (1, 2) and not isinstance(args[0], int):
            self._cptr = MemPtr._address_of(args[0])
            self._keep = args[0]
            if len(args) == 2:
                self._addr = need(args[1], int, "addr", "xrt.MemPtr")
            return
        if args:
            raise TypeError(f"xrt.MemPtr({', '.join(type(a).__name__ for a in args)}): give an addr (int), a "
                            "buffer (the C pointer), or both")

    @staticmethod
    def _address_of(buf):
        import ctypes
        try:
            m = memoryview(buf)
        except TypeError:
            raise TypeError(f"xrt.MemPtr: argument cptr must be a buffer, not {type(buf).__name__}") from None
        if m.readonly:
            if isinstance(buf, bytes):
                return ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value
            raise TypeError("xrt.MemPtr: a read-only buffer other than bytes has no C pointer to give")
        return ctypes.addressof((ctypes.c_char * max(m.nbytes, 1)).from_buffer(m.cast("B")))

    @staticmethod
    def _of_chunk(chunk):
        p = MemPtr.__new__(MemPtr)
        p._keep = chunk
        ptype = PtrType(int(chunk._obj.get_region().get_ptype()))
        addr = chunk._obj.get_addr()
        p._addr = None if ptype == PtrType.CPTR else addr
        p._cptr = addr if ptype != PtrType.ADDR else None
        return p

    @staticmethod
    def NullPtr():
        return MemPtr()

    @staticmethod
    def Init():
        return MemPtr()

    def isNull(self):
        return self._cptr is None and self._addr is None

    def ptype(self):
        if self._cptr is not None and self._addr is not None:
            return PtrType.BOTH
        return PtrType.CPTR if self._cptr is not None else PtrType.ADDR

    def addr(self):
        if self._addr is None:
            raise XrtError("MemPtr.addr: " + ("a null pointer" if self.isNull() else
                                               "the pointer is PtrType.CPTR (a host pointer) and has no device address"))
        return self._addr

    def cptr(self):
        if self._cptr is None:
            raise XrtError("MemPtr.cptr: " + ("a null pointer" if self.isNull() else
                                               "the pointer is PtrType.ADDR (a device address) and has no C pointer"))
        return self._cptr

    def clone(self, depth=1):
        return MemPtr(self)

    def __eq__(self, other):
        return isinstance(other, MemPtr) and (self._cptr, self._addr) == (other._cptr, other._addr)

    __hash__ = None

    # the manual's pointer arithmetic (§2.1): ptr + n, n + ptr, ptr - n, ptr - ptr, comparisons
    def _moved(self, delta):
        if self.isNull():
            raise XrtError("MemPtr: arithmetic on a null pointer")
        p = MemPtr(self)
        p._cptr = None if p._cptr is None else p._cptr + delta
        p._addr = None if p._addr is None else p._addr + delta
        return p

    def _key(self, other, op):
        if not isinstance(other, MemPtr) or other.ptype() != self.ptype() or self.isNull() or other.isNull():
            raise TypeError(f"MemPtr {op}: both pointers must be non-null and of the same PtrType")
        return (self._addr if self._addr is not None else self._cptr,
                other._addr if other._addr is not None else other._cptr)

    def __add__(self, n):
        if not isinstance(n, int):
            return NotImplemented
        return self._moved(n)

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, int):
            return self._moved(-other)
        a, b = self._key(other, "-")
        return a - b

    def __lt__(self, other):
        a, b = self._key(other, "<")
        return a < b

    def __le__(self, other):
        a, b = self._key(other, "<=")
        return a <= b

    def __gt__(self, other):
        a, b = self._key(other, ">")
        return a > b

    def __ge__(self, other):
        a, b = self._key(other, ">=")
        return a >= b

    def __repr__(self):
        if self.isNull():
            return "xrt.MemPtr(null)"
        parts = ([f"cptr=0x{self._cptr:x}"] if self._cptr is not None else []) + \
                ([f"addr=0x{self._addr:x}"] if self._addr is not None else [])
        return f"xrt.MemPtr({', '.join(parts)})"


class MemManager:
    """The allocator of a region (MemRegion.memManager()): its chunks."""

    def __init__(self, *args):
        raise TypeError("xrt.MemManager(): a manager comes from MemRegion.memManager()")

    def getAllMemChunk(self):
        """Every chunk allocated on the region now, by address."""
        return [wrap(_chunk_class(), c) for c in Xrt.MemRegion.list_chunks(self._region)]

    def getMemChunk(self, ptr, byte_size):
        """The allocated chunk that begins at @ptr and has @byte_size bytes, else None."""
        need(ptr, MemPtr, "ptr", "MemManager.getMemChunk")
        need(byte_size, int, "byte_size", "MemManager.getMemChunk")
        addr = ptr._addr if ptr._addr is not None else ptr._cptr
        if addr is None:
            return None
        c = Xrt.MemRegion.find_chunk(self._region, addr, byte_size)
        if c is None or c.get_addr() != addr or c.get_size() != byte_size:
            return None
        return wrap(_chunk_class(), c)

    def getMemRegionInfo(self):
        """{name, base, size, used, free, chunks}."""
        r = self._region
        chunks = self.getAllMemChunk()
        used = sum(c.size() for c in chunks)
        return {"name": r.get_name(), "base": r.get_base(), "size": r.get_size(), "used": used,
                "free": r.get_size() - used if r.get_size() else None, "chunks": len(chunks)}

    def clone(self, depth=1):
        return wrap_manager(self._region)

    def __repr__(self):
        return f"xrt.MemManager({self._region.get_name()})"


def wrap_manager(region_obj):
    m = MemManager.__new__(MemManager)
    m._region = region_obj
    return m


class RegRegion:
    """The register space of a device (Device.defaultRegRegion()): 32-bit registers at byte
    addresses; @relative addresses count from the region's base (0 on the simulated boards,
    so both forms name the same register)."""

    NAME = "REG"

    def __init__(self, *args):
        raise TypeError("xrt.RegRegion(): a register region comes from Device.defaultRegRegion() or "
                        "Device.getRegRegion(name)")

    def device(self):
        return self._device

    def base(self):
        return 0

    def name(self):
        return RegRegion.NAME

    def read(self, addr, relative=False):
        need(addr, int, "addr", "RegRegion.read")
        return call(self._device._obj.read_reg, addr)[1]

    def write(self, addr, data, relative=False):
        need(addr, int, "addr", "RegRegion.write")
        need(data, int, "data", "RegRegion.write")
        call(self._device._obj.write_reg, addr, data)

    def clone(self, depth=1):
        return self

    def __repr__(self):
        return f"xrt.RegRegion({RegRegion.NAME} of {self._device.url()})"
