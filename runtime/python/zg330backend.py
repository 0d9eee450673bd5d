"""zg330backend — the vendor's ZG330Backend module on Zhuge Workbench's runtime.

    from zg330backend import *
    zg = ZG330Backend(sess.backends[0])
    zg.disableMergeHardOp(); zg.disableEtmOptimize(); zg.ocmOptimize(OcmOpt.BEST_SCORE)
    zg.logic_segment_map[SegmentType.FTMP].byte_size
"""
import enum

import xir
import xrt
from _zhuge import Zg330, Zw, XrtError, call, need, unsupported, wrap

__all__ = ["ZG330Backend", "OcmOpt", "SegmentType", "ZG330Device", "ValueInfo", "HardOpInfo", "LogicSegment",
           "PhySegment", "MemChunkInfo", "ForwardInfo", "BuyiDevice"]


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


class ValueInfo:
    """ValueInfo (manual §3.1): where the backend put a value. value is the network's
    xir.Value; real is False when the value shares the address of fake_from (an xir.Value),
    and a real value lists those that share its address in real_to."""

    def __init__(self, v, net):
        self.v_id = v.v_id
        self.value = wrap(xir.Value, net.get_value(v.v_id))
        self.segment = SegmentType(v.segment)
        self.is_ocm = bool(v.is_ocm)
        self.is_host = bool(v.is_host)
        self.real = bool(v.real)
        self.real_to = [wrap(xir.Value, net.get_value(i)) for i in (v.real_to or [])]
        self.fake_from = wrap(xir.Value, net.get_value(v.fake_from)) if v.fake_from >= 0 else None
        self.logic_addr = v.logic_addr
        self.phy_addr = v.phy_addr
        self.byte_size = v.byte_size
        self.shape = list(v.get_shape())

    def __repr__(self):
        return f"ValueInfo(v_id={self.v_id}, {self.segment.name}, ocm={self.is_ocm}, phy=0x{self.phy_addr:x})"


_ValueInfo = ValueInfo


class HardOpInfo:
    """HardOpInfo (manual §3.2): a hardop's weights and instructions. With merge on, a merged
    launch has an entry of its own (its op_id as Session.getForwards gives it; net_hardop
    None) whose merge_from lists the hardops it merges; each of those says merged_into."""

    _KEYS = ("weights_phy_addr", "weights_size", "instr_phy_addr", "instr_size", "sync_idx", "merged_into")

    def __init__(self, op_id, net, weights_logic_addr=0, weights_size=0, instr_logic_addr=0, instr_size=0,
                 weights_phy_addr=0, instr_phy_addr=0, sync_idx=(0, 0), merge_from=(), merged_into=-1):
        self.op_id = op_id
        op = net.get_op_by_id(op_id)
        self.net_hardop = wrap(xir.Operation, op) if op is not None else None
        self.weights_logic_addr = weights_logic_addr
        self.weights_size = weights_size
        self.instr_logic_addr = instr_logic_addr
        self.instr_size = instr_size
        self.weights_phy_addr = self.weight_phy_addr = weights_phy_addr
        self.instr_phy_addr = instr_phy_addr
        self.sync_idx = tuple(sync_idx)
        self.merge_from = list(merge_from)
        self.merged_into = merged_into

    def __getitem__(self, key):   # the dict form of earlier versions: info["instr_size"]
        if key not in self._KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __repr__(self):
        return f"HardOpInfo(op_id={self.op_id}, instr 0x{self.instr_phy_addr:x}+{self.instr_size})"


class MemChunkInfo:
    """MemChunkInfo (manual §3.4): the memory a physical segment or value got."""

    def __init__(self, chunk, user_used, staged_chunk=None):
        self.memChunk = chunk
        self.user_used = bool(user_used)
        self.staged_chunk = dict(staged_chunk or {})

    def __repr__(self):
        return f"MemChunkInfo({self.memChunk!r}, user_used={self.user_used})"


class LogicSegment:
    """LogicSegment (manual §3.3): a segment's logical layout, from init."""

    def __init__(self, seg_type, info, info_map, hardop_map):
        self.segment_type = self.type = SegmentType(seg_type)
        self.byte_size = info.byte_size
        self.logic_addr = info.logic_addr
        self.phy_addr = info.phy_addr
        self.user_used = bool(info.user_used)
        self.info_map = info_map
        self.hardop_map = hardop_map

    def __repr__(self):
        return f"LogicSegment({self.type.name}, byte_size={self.byte_size})"


class PhySegment(LogicSegment):
    """PhySegment (manual §3.5): a segment's memory after apply: single_chunk (WEIGHT, INSTR,
    FTMP) or multi_chunk (INPUT, OUTPUT: {v_id: MemChunkInfo})."""

    def __init__(self, seg_type, info, info_map, hardop_map, single_chunk, multi_chunk):
        super().__init__(seg_type, info, info_map, hardop_map)
        self.byte_size = info.phy_size
        self.single_chunk = single_chunk
        self.multi_chunk = multi_chunk

    def __repr__(self):
        return f"PhySegment({self.type.name}, byte_size={self.byte_size}, phy_addr=0x{self.phy_addr:x})"


_Segment = LogicSegment


class ForwardInfo:
    """ForwardInfo (manual §3.6): what the backend's forward uses."""

    def __init__(self, value_map, hardop_map, memchunk_map):
        self.value_map = value_map
        self.hardop_map = hardop_map
        self.idx_map = {op_id: h.sync_idx for op_id, h in hardop_map.items() if h.net_hardop is not None}
        self.memchunk_map = memchunk_map


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

    def _net(self):
        return self._zg().get_view().get_network()

    def _chunk_at(self, addr, size):
        """The device's chunk at @addr of @size bytes (a segment's or a value's), or None."""
        if size <= 0:
            return None
        dev = self._zg().get_device()
        for name in ("ETM", "OCM"):
            region = dev.get_mem_region(name) if name in dev.list_mem_regions() else None
            c = xrt.Xrt.MemRegion.find_chunk(region, addr, size) if region is not None else None
            if c is not None:
                return wrap(xrt.MemChunk, c)
        return None

    @property
    def logic_segment_map(self):
        if not self._zg().is_applied():
            call(Zg330.Backend.get_logic_segment_size, self._obj, int(SegmentType.FTMP))
        r = self._report()
        values = self.value_info
        hardops = self.hardop_info
        out = {}
        for t in range(5):
            info_map = {v_id: v for v_id, v in values.items() if v.segment == t}
            hardop_map = hardops if t in (SegmentType.WEIGHT, SegmentType.INSTR) else {}
            out[SegmentType(t)] = LogicSegment(t, r.get_segment(t), info_map, hardop_map)
        return out

    @property
    def phy_segment_map(self):
        r = self._report()
        values = self.value_info
        hardops = self.hardop_info
        applied = self._zg().is_applied()
        out = {}
        for t in range(5):
            seg = r.get_segment(t)
            info_map = {v_id: v for v_id, v in values.items() if v.segment == t}
            hardop_map = hardops if t in (SegmentType.WEIGHT, SegmentType.INSTR) else {}
            single, multi = None, {}
            if applied and t in (SegmentType.INPUT, SegmentType.OUTPUT):
                for v_id, v in info_map.items():
                    if v.real and not v.is_host:
                        c = self._chunk_at(v.phy_addr, 1)
                        multi[v_id] = MemChunkInfo(c, seg.user_used)
            elif applied:
                single = MemChunkInfo(self._chunk_at(seg.phy_addr, 1), seg.user_used)
            out[SegmentType(t)] = PhySegment(t, seg, info_map, hardop_map, single, multi)
        return out

    @property
    def value_info(self):
        r = self._report()
        net = self._net()
        return {v.v_id: ValueInfo(v, net) for v in (r.get_value(i) for i in range(r.get_n_values()))}

    @property
    def hardop_info(self):
        r = self._report()
        net = self._net()
        out = {}
        merged = {}
        for i in range(r.get_n_hardops()):
            h = r.get_hardop(i)
            out[h.op_id] = HardOpInfo(h.op_id, net, h.weights_logic_addr, h.weights_size, h.instr_logic_addr,
                                      h.instr_size, h.weights_phy_addr, h.instr_phy_addr, h.sync_idx, (),
                                      h.merged_into)
            if h.merged_into >= 0 and h.merged_into != h.op_id:
                merged.setdefault(h.merged_into, []).append(out[h.op_id])
        for op_id, members in merged.items():
            first, last = members[0], members[-1]
            out[op_id] = HardOpInfo(op_id, net, first.weights_logic_addr, sum(m.weights_size for m in members),
                                    first.instr_logic_addr, sum(m.instr_size for m in members),
                                    first.weights_phy_addr, first.instr_phy_addr, last.sync_idx,
                                    [m.op_id for m in members])
        return out

    @property
    def forward_info(self):
        values = self.value_info
        memchunks = {}
        if self._zg().is_applied():
            for v_id, v in values.items():
                if not v.is_host:
                    c = self._chunk_at(v.phy_addr, 1)
                    if c is not None:
                        memchunks[v_id] = MemChunkInfo(c, False)
        return ForwardInfo(values, self.hardop_info, memchunks)

    @property
    def zg330backend_id(self):
        return Zg330.Backend.get_id(self._zg())

    @property
    def is_applied_(self):
        return self._zg().is_applied()

    @property
    def is_mergeHardop(self):
        return self.mergeHardOp()

    @property
    def is_etmOptimize(self):
        return self.etmOptimize()

    @property
    def ocmopt(self):
        return self.ocmOpt()

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

    def clone(self, depth=1):
        return type(self)(self._dev)

    def mmuModeSwitch(self, is_on):
        unsupported(f"{type(self).__name__}.mmuModeSwitch (the backend keeps the MMU context itself: manual §1.6)")


class BuyiDevice(ZG330Device):
    """The vendor's BuyiDevice on mock://buyi: the ZG330Device calls; the Buyi-only ones that
    configure hardware this simulator does not model raise NotImplementedError naming them."""

    def clkFreq(self):
        unsupported("BuyiDevice.clkFreq (the simulated Buyi's clock is its profile's: xrt-run --profile)")

    def setClkFreq(self, clk_freq):
        unsupported("BuyiDevice.setClkFreq (the simulated Buyi's clock is its profile's)")

    def modeInfo(self):
        unsupported("BuyiDevice.modeInfo (the backend keeps the MMU context itself: manual §1.6)")

    def setDType(self, dtype):
        unsupported("BuyiDevice.setDType (the NPU's 8/16-bit mode comes from each hardop's types)")

    def setEnabledMPE(self, rows, cols):
        unsupported("BuyiDevice.setEnabledMPE (the MPE grid is the profile's: getRowsCols)")

    def updateBuffer(self, seg_table):
        unsupported("BuyiDevice.updateBuffer (the backend keeps the MMU segment table itself: manual §1.6)")
