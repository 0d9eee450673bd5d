"""zg330backend — the vendor's ZG330Backend module on Zhuge Workbench's runtime.

    from zg330backend import *
    zg = ZG330Backend(sess.backends[0])
    zg.disableMergeHardOp(); zg.disableEtmOptimize(); zg.ocmOptimize(OcmOpt.BEST_SCORE)
    zg.logic_segment_map[SegmentType.FTMP].byte_size
"""
import enum

import xrt
from _zhuge import Zg330, Zw, XrtError, call, need, unsupported, wrap

__all__ = ["ZG330Backend", "OcmOpt", "SegmentType", "ZG330Device"]


def _ocm_opt():
    """OcmOpt with the vendor's member names and numbers, made from the runtime's one enum
    (Zw.OcmOpt, its names from the runtime's table of OCM options): a new option appears
    here without a line of Python."""
    values = sorted(int(v) for v in Zw.OcmOpt.__enum_values__)
    members = [(Zw.OcmOpt.to_string(v), v) for v in values]
    opt = enum.IntEnum("OcmOpt", members, module=__name__)
    opt.__doc__ = "\n".join(["OCM options (ZG330Backend manual §2.3.5):"]
                             + [f"    {name}: {Zw.OcmOpt.get_description(v)}" for name, v in members])
    return opt


OcmOpt = _ocm_opt()


class SegmentType(enum.IntEnum):
    WEIGHT = 0
    INSTR = 1
    FTMP = 2
    INPUT = 3
    OUTPUT = 4


class _Segment:
    """A LogicSegment / PhySegment as the manual's §3.3, §3.5."""

    def __init__(self, seg_type, info, physical):
        self.type = SegmentType(seg_type)
        self.byte_size = info.phy_size if physical else info.byte_size
        self.logic_addr = info.logic_addr
        self.phy_addr = info.phy_addr
        self.user_used = bool(info.user_used)

    def __repr__(self):
        return f"Segment({self.type.name}, byte_size={self.byte_size})"


class _ValueInfo:
    """ValueInfo (manual §3.1)."""

    def __init__(self, v):
        self.v_id = v.v_id
        self.segment = SegmentType(v.segment)
        self.is_ocm = bool(v.is_ocm)
        self.is_host = bool(v.is_host)
        self.real = bool(v.real)
        self.logic_addr = v.logic_addr
        self.phy_addr = v.phy_addr
        self.byte_size = v.byte_size
        self.shape = list(v.get_shape())

    def __repr__(self):
        return f"ValueInfo(v_id={self.v_id}, {self.segment.name}, ocm={self.is_ocm}, phy=0x{self.phy_addr:x})"


class ZG330Backend(xrt.Backend):
    """The ZG330Backend of a session or of Backend.Create: options before apply, precheck and
    log after, the deploy facts (logic and physical segments, ValueInfo, HardOpInfo)."""

    _vendor_name = "ZG330Backend"
    _gi_class = Zg330.Backend

    def __init__(self, backend=None):
        if not isinstance(backend, xrt.Backend):
            raise TypeError(f"{type(self).__name__}(backend): argument backend must be an xrt.Backend "
                            f"(Backend.Create, Session.backends[i]), not {type(backend).__name__}; "
                            f"{type(self).__name__}.Init() makes one to init(view, device)")
        obj = backend._require(f"{type(self).__name__}(backend)")
        if not isinstance(obj, self._gi_class):
            raise XrtError(f"{type(self).__name__}(backend): the backend is a {obj.get_name()}")
        self._obj = obj

    def _zg(self):
        return self._require(type(self).__name__)

    def disableMergeHardOp(self):
        call(Zg330.Backend.disable_merge_hardop, self._zg())

    def disableEtmOptimize(self):
        call(Zg330.Backend.disable_etm_optimize, self._zg())

    def ocmOptimize(self, option):
        call(Zg330.Backend.ocm_optimize, self._zg(), int(option))

    def userReuseSegment(self, chunk, seg_type):
        need(chunk, xrt.MemChunk, "chunk", "ZG330Backend.userReuseSegment")
        need(seg_type, (SegmentType, int), "segment_type", "ZG330Backend.userReuseSegment")
        call(Zg330.Backend.user_reuse_segment, self._zg(), chunk._obj, int(seg_type))

    def userConnectNetwork(self, chunk, v_id):
        need(chunk, xrt.MemChunk, "chunk", "ZG330Backend.userConnectNetwork")
        need(v_id, int, "value_id", "ZG330Backend.userConnectNetwork")
        call(Zg330.Backend.user_connect_network, self._zg(), chunk._obj, v_id)

    def precheck(self):
        call(Zg330.Backend.precheck, self._zg())

    def log(self, dir=None):
        """Writes the deploy log (text and JSON) and returns the JSON's path."""
        ok, path = call(Zg330.Backend.log, self._zg(), dir)
        return path

    def _report(self):
        return Zg330.Backend.get_report(self._zg())

    @property
    def logic_segment_map(self):
        if not self._zg().is_applied():
            call(Zg330.Backend.get_logic_segment_size, self._obj, int(SegmentType.FTMP))
        r = self._report()
        return {SegmentType(t): _Segment(t, r.get_segment(t), False) for t in range(5)}

    @property
    def phy_segment_map(self):
        r = self._report()
        return {SegmentType(t): _Segment(t, r.get_segment(t), True) for t in range(5)}

    @property
    def value_info(self):
        r = self._report()
        return {v.v_id: _ValueInfo(v) for v in (r.get_value(i) for i in range(r.get_n_values()))}

    @property
    def hardop_info(self):
        r = self._report()
        out = {}
        for i in range(r.get_n_hardops()):
            h = r.get_hardop(i)
            out[h.op_id] = {"weights_phy_addr": h.weights_phy_addr, "weights_size": h.weights_size,
                            "instr_phy_addr": h.instr_phy_addr, "instr_size": h.instr_size,
                            "sync_idx": tuple(h.sync_idx), "merged_into": h.merged_into}
        return out

    def mergeHardOp(self):
        return Zg330.Backend.get_merge_hardop(self._zg())

    def etmOptimize(self):
        return Zg330.Backend.get_etm_optimize(self._zg())

    def ocmOpt(self):
        return OcmOpt(Zg330.Backend.get_ocm_opt(self._zg()))

    def report(self):
        """The deploy report as text (what `xrt-run plan` prints)."""
        return self._report().to_text()


class ZG330Device(xrt.Device):
    """The ZG330Device calls of the vendor's xrt module on a simulated board:
    ZG330Device(device) with getRowsCols, readReg/writeReg(cid, rid, offset), icoreCalc,
    layerCount, w/rTileCount, calcTime, configTimer/configProfiler, setMasterCID,
    setIcoreClkFreq/setDDRClkFreq, getLayerTime, showLayerTime; and every Device call."""

    def __init__(self, device=None):
        need(device, xrt.Device, "device", "ZG330Device")
        self._dev = device
        self._obj = device._obj
        if self._obj.get_name() not in ("zg330", "buyi"):
            raise XrtError(f"ZG330Device: {device.url()} is not a simulated ZG330 or Buyi board")

    def getRowsCols(self):
        return tuple(Zg330.device_get_rows_cols(self._obj))

    def icoreCalc(self, addr, size):
        call(Zg330.device_icore_calc, self._obj, addr, size)

    def layerCount(self):
        return Zg330.device_layer_count(self._obj)

    def wTileCount(self, cid):
        return Zg330.device_w_tile_count(self._obj, cid)

    def rTileCount(self, cid):
        return Zg330.device_r_tile_count(self._obj, cid)

    def calcTime(self):
        return Zg330.device_calc_time(self._obj)

    def configTimer(self, chunk):
        call(Zg330.device_config_timer, self._obj, chunk._obj if chunk is not None else None)

    def configProfiler(self, chunk):
        call(Zg330.device_config_profiler, self._obj, chunk._obj if chunk is not None else None)

    def setMasterCID(self, cid):
        call(Zg330.device_set_master_cid, self._obj, cid)

    def setIcoreClkFreq(self, freq_hz):
        call(Zg330.device_set_icore_clk_freq, self._obj, int(freq_hz))

    def setDDRClkFreq(self, freq_hz):
        call(Zg330.device_set_ddr_clk_freq, self._obj, int(freq_hz))

    def getLayerTime(self, n_layers):
        return list(call(Zg330.device_get_layer_time, self._obj, n_layers))

    def showLayerTime(self, from_idx, op_cnt):
        """Prints the timer's layer times [from_idx, from_idx + op_cnt) (configTimer first)
        and returns them."""
        need(from_idx, int, "from_idx", "ZG330Device.showLayerTime")
        need(op_cnt, int, "op_cnt", "ZG330Device.showLayerTime")
        times = self.getLayerTime(from_idx + op_cnt)[from_idx:]
        for i, t in enumerate(times):
            print(f"layer {from_idx + i}: {t:.6f} ms")
        return times

    def readReg(self, *args):
        """readReg(cid, rid, offset): an MPE register; readReg(addr[, relative]) /
        readReg(region_name, addr[, relative]): the Device's."""
        if len(args) == 3 and not isinstance(args[0], str) and not isinstance(args[2], bool):
            return call(Zg330.device_read_reg, self._obj, *args)[1]
        return xrt.Device.readReg(self, *args)

    def writeReg(self, *args):
        """writeReg(cid, rid, offset, data): an MPE register; writeReg(addr, data[, relative])
        / writeReg(region_name, addr, data[, relative]): the Device's."""
        if len(args) == 4 and not isinstance(args[0], str) and not isinstance(args[3], bool):
            call(Zg330.device_write_reg, self._obj, *args)
            return
        xrt.Device.writeReg(self, *args)

    def mmuModeSwitch(self, is_on):
        unsupported("ZG330Device.mmuModeSwitch (the backend keeps the MMU context itself: manual §1.6)")
