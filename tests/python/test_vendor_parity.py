"""Issue 36: the vendor's Python scripts run unchanged — the Tensor overloads and xir types a
script names (item 1), the bugs of the issue (item 5, each test failed before its fix),
sessions from the user's own backends with the manual's multi-network recipes run end to end
(item 3), and the memory and register layer (item 4). Outputs are compared byte for byte with
the C API's (xrt-run) on the same input."""
import io
import os

import numpy
import pytest

import xir
from xrt import *
from host_backend import *
from zg330backend import *

from conftest import c_api_outputs, net_path, raw_path, seeded_bytes


def load(name="tiny"):
    network = xir.Network.CreateFromJsonFile(net_path(name))
    network.loadParamsFromFile(raw_path(name))
    return network


def reference(name, raw, *options):
    return c_api_outputs(net_path(name), raw_path(name), raw, *options)


def assert_outputs(network, outs, ref):
    values = network.outputs()
    assert len(outs) == len(values)
    for v, t in zip(values, outs):
        assert t.tobytes() == ref[v.v_id], f"v_id {v.v_id} differs from the C API's"


@pytest.fixture
def device():
    return Device.Open("mock://zg330")


# ---- item 1: the vendor's signatures ---------------------------------------------------

def test_literal_input_script(device):
    """The two lines every vendor inference script starts with, then forward."""
    network = load()
    img = numpy.frombuffer(seeded_bytes(network.inputs()[0].storageBytes(), 3), numpy.uint8).reshape(
        network.inputs()[0].shape())
    input_dtype = network.inputOp()[0].dtype()
    input_tensor = Tensor(img, input_dtype)
    assert isinstance(input_dtype, xir.TensorType)
    assert input_dtype.element_dtype() == xir.IntegerType.UInt8()
    assert input_dtype.layout() == xir.Layout.NHWC() and input_dtype.getAxis("C") == 3
    assert network.getValueById(input_dtype.v_id).tensorType() == input_dtype
    assert network.outputOp()[0].v_id == network.outputs()[0].v_id
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    assert_outputs(network, sess.forward([input_tensor]), reference("tiny", img.tobytes()))


def test_tensor_overloads(device):
    network = load()
    v = network.inputs()[0]
    raw = seeded_bytes(v.storageBytes(), 4)
    # Tensor(buffer, dtype) from bytes, bytearray, numpy
    for b in (raw, bytearray(raw), numpy.frombuffer(raw, numpy.uint8)):
        assert Tensor(b, v.dtype()).tobytes() == raw
    # Tensor(buffer): typed by the buffer; Tensor(buffer, layout)
    a = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    t = Tensor(a)
    assert t.dtype().element_dtype() == xir.FloatType.FP32() and t.shape() == [2, 3, 4]
    assert numpy.array_equal(t.numpy(), a)
    assert Tensor(a, xir.Layout("NHW")).dtype().layout().text == "NHW"
    # Tensor(dtype).mallocOn(region), then write at offsets and read back
    t = Tensor(v.dtype()).mallocOn(device.getMemRegion("ETM"))
    assert t.hasData() and t.isOn(device.getMemRegion("ETM"))
    t.write(0, raw)
    t.write(10, b"\x01\x02\x03")
    expect = raw[:10] + b"\x01\x02\x03" + raw[13:]
    assert t.tobytes() == expect
    assert t.read(None, 10, 3) == b"\x01\x02\x03"
    dest = bytearray(5)
    t.read(dest, 100, 5)
    assert bytes(dest) == expect[100:105]
    # Tensor(dtype, chunk, offset)
    chunk = device.getMemRegion("ETM").malloc(v.storageBytes() + 64, True, 4096)
    chunk.write(64, raw)
    t = Tensor(v.dtype(), chunk, 64)
    assert t.offset() == 64 and t.tobytes() == raw
    # xir types a script names
    tt = xir.TensorType(xir.FloatType.FP32(), [1, 416, 416, 3], xir.Layout.NHWC())
    assert tt.storageBytes() == 416 * 416 * 3 * 4 and tt.getAxis("W") == 416
    assert xir.IntegerType.SInt(12).text == "@sint(12)" and xir.FloatType.BF16().bits() == 16
    weight = xir.Params(xir.TensorType(xir.FloatType.FP32(), [3, 3, 3, 16], xir.Layout.HWIO())).fill(float)
    assert weight.isParams()
    assert numpy.array_equal(numpy.frombuffer(weight.data(), numpy.float32), numpy.arange(432, dtype=numpy.float32))


DUMP_FORMATS = ["SFB", "SFT", "SQB", "SQT", "HQB", "HQT"]


@pytest.mark.parametrize("fmt", DUMP_FORMATS)
def test_tensor_dump_equals_the_c_dump(device, tmp_path, fmt):
    """Tensor.dump(os, format) writes the bytes setDumpOutputs (the C session) writes in that
    format, for the quantised NCHWc32 output of tiny."""
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    sess.setDumpOutputs(True, str(tmp_path), fmt)
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 5)
    out = sess.forward([Tensor(raw, network.inputs()[0].dtype())])[0]
    os_ = io.BytesIO()
    out.dump(os_, fmt)
    v_id = network.outputs()[0].v_id
    assert os_.getvalue() == (tmp_path / f"{v_id}.ftmp").read_bytes()
    out.dump(str(tmp_path / "again.ftmp"), fmt)
    assert (tmp_path / "again.ftmp").read_bytes() == os_.getvalue()


def test_tensor_dump_default_is_the_bytes_in_memory(device):
    """XRT manual §2.6: dump(os) with no format (format "") writes the raw data in memory —
    the stored bytes (HQB), not a conversion."""
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    out = sess.forward([Tensor(seeded_bytes(768, 6), network.inputs()[0].dtype())])[0]
    default, hqb, sfb = io.BytesIO(), io.BytesIO(), io.BytesIO()
    out.dump(default)
    out.dump(hqb, "HQB")
    out.dump(sfb, "SFB")
    assert default.getvalue() == out.tobytes() == hqb.getvalue()
    assert default.getvalue() != sfb.getvalue()


def test_layout_and_quantisation_conversion(device):
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 6)
    out = sess.forward([Tensor(raw, network.inputs()[0].dtype())])[0]
    assert out.dtype().layout().text == "NCHWc32"
    s_q = out.convert("SQB")
    s_f = out.convert("SFB")
    assert s_q.dtype().layout() == xir.Layout.NHWC() and s_q.shape() == [1, 16, 16, 32]
    assert s_f.dtype().element_dtype() == xir.FloatType.FP32()
    sqb, sfb = io.BytesIO(), io.BytesIO()
    out.dump(sqb, "SQB")
    out.dump(sfb, "SFB")
    assert s_q.tobytes() == sqb.getvalue() and s_f.tobytes() == sfb.getvalue()
    # the software-layout integers dequantise to the software-layout floats
    assert s_q.dequantize().tobytes() == s_f.tobytes()
    assert out.toSoftwareLayout().tobytes() == sqb.getvalue()
    with pytest.raises(XrtError) as e:
        out.convert("HFB")
    assert "HFB" in str(e.value)
    with pytest.raises(XrtError) as e:
        out.convert("SFT")
    assert "text" in str(e.value)


# ---- item 5: the bugs, each with its test -------------------------------------------------

def test_chunk_is_on_compares_regions_not_names():
    a, b = Device.Open("mock://zg330"), Device.Open("mock://zg330")
    chunk = a.getMemRegion("ETM").malloc(64)
    assert chunk.isOn(a.getMemRegion("ETM"))
    assert not chunk.isOn(b.getMemRegion("ETM"))     # was True: same name "ETM"


def test_closed_device_region_allocates_nothing():
    d = Device.Open("mock://zg330")
    region = d.getMemRegion("ETM")
    Device.Close(d)
    with pytest.raises(XrtError) as e:
        region.malloc(64)
    assert "closed" in str(e.value) and "mock://zg330" in str(e.value)


def test_read_past_the_end_is_an_error(device):
    t = Tensor(b"\x01" * 16, xir.TensorType(xir.IntegerType.UInt8(), [16]))
    with pytest.raises(XrtError) as e:
        t.read(None, 10, 8)
    assert "16 bytes" in str(e.value)
    chunk = device.defaultMemRegion().malloc(16)
    with pytest.raises(XrtError):
        chunk.read(None, 8, 16)
    with pytest.raises(XrtError):
        t.write(12, b"\x00" * 8)


def test_callbacks_must_be_callable_and_their_errors_reach_forward(device):
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    with pytest.raises(TypeError) as e:
        sess.setPostCallBack(42)
    assert "func" in str(e.value)
    calls = []

    def boom(session, op, backend, outputs):
        calls.append(op)
        raise ValueError("from the callback")

    sess.setPostCallBack(boom)
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 7)
    with pytest.raises(ValueError, match="from the callback"):
        sess.forward([Tensor(raw, network.inputs()[0].dtype())])
    assert len(calls) == 1                                  # no call after the first failure
    sess.setPostCallBack(None)
    assert_outputs(network, sess.forward([Tensor(raw, network.inputs()[0].dtype())]), reference("tiny", raw))


def test_merged_launch_callback_gets_an_operation(device):
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    assert any(isinstance(f[0], xir.MergedOperation) for f in sess.getForwards())   # merge on: a merged launch
    seen = []
    sess.setPreCallBack(lambda s, op, backend, outs: seen.append(op))
    sess.forward([Tensor(seeded_bytes(768, 8), network.inputs()[0].dtype())])
    assert seen and all(isinstance(op, xir.Operation) for op in seen)
    merged = [op for op in seen if isinstance(op, xir.MergedOperation)]
    launches = [f[0] for f in sess.getForwards() if isinstance(f[0], xir.MergedOperation)]
    assert [op.op_id for op in merged] == [op.op_id for op in launches]
    assert [[m.op_id for m in op.mergeFrom()] for op in merged] == \
        [[m.op_id for m in op.mergeFrom()] for op in launches]
    assert all(op.typeKey() == "icraft::xir::HardOp" and op.outputs() for op in merged)


def test_user_chunk_freed_before_forward_is_refused(device):
    network = load()
    backend = Backend.Create(ZG330Backend, network.view(0), device)
    zg = ZG330Backend(backend)
    chunk = device.defaultMemRegion().malloc(zg.logic_segment_map[SegmentType.WEIGHT].byte_size, True, 4096)
    zg.userReuseSegment(chunk, SegmentType.WEIGHT)
    backend.apply()
    sess = Session.CreateWithBackends(network.view(0), [backend, Backend.Create(HostBackend, network.view(0), device)])
    sess.apply()
    chunk.free()
    with pytest.raises(XrtError) as e:
        sess.forward([Tensor(seeded_bytes(768, 9), network.inputs()[0].dtype())])
    assert "userReuseSegment(WEIGHT)" in str(e.value) and "freed" in str(e.value)


def test_set_dtype_changes_the_tensor_in_place():
    t = Tensor(bytes(range(16)), xir.TensorType(xir.IntegerType.UInt8(), [16]))
    t.setDType(xir.TensorType(xir.IntegerType.SInt8(), [4, 4]))   # vendor code ignores the return
    assert t.shape() == [4, 4] and t.dtype().element_dtype() == xir.IntegerType.SInt8()
    assert t.tobytes() == bytes(range(16))


@pytest.mark.parametrize("call", ["stepTo", "sub", "dumpSnapshot"])
def test_calls_before_apply_name_themselves(device, tmp_path, call):
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    with pytest.raises(XrtError) as e:
        {"stepTo": lambda: sess.stepTo(network.ops()[1].op_id, []),
         "sub": lambda: sess.sub(1, 3),
         "dumpSnapshot": lambda: sess.dumpSnapshot(str(tmp_path / "s"))}[call]()
    assert f"{call} before apply()" in str(e.value)


def test_wrong_argument_types_are_type_errors_naming_the_argument(device):
    network = load()
    with pytest.raises(TypeError, match="argument region"):
        device.malloc(16).isOn("ETM")
    with pytest.raises(TypeError, match="argument network"):
        Session.Create([ZG330Backend, HostBackend], "tiny", [device, HostDevice.Default()])
    with pytest.raises(TypeError, match=r"argument devices\[0\]"):
        Session.Create([ZG330Backend, HostBackend], network.view(0), ["mock://zg330", HostDevice.Default()])
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    with pytest.raises(TypeError, match=r"argument inputs\[0\]"):
        sess.forward([numpy.zeros(768, numpy.uint8)])
    with pytest.raises(TypeError, match="argument chunk"):
        ZG330Backend(Backend.Create(ZG330Backend, network.view(0), device)).userReuseSegment(1234, SegmentType.WEIGHT)
    with pytest.raises(TypeError, match="argument mregion"):
        Tensor(network.inputs()[0].dtype()).mallocOn("ETM")


@pytest.mark.parametrize("cls", [Backend, MemChunk, MemRegion, Device, Session])
def test_default_constructors_say_how_to_get_one(cls):
    with pytest.raises(TypeError) as e:
        cls()
    assert "comes from" in str(e.value)


def test_zg330_backend_log_returns_the_path(device, tmp_path):
    network = load()
    backend = Backend.Create(ZG330Backend, network.view(0), device)
    backend.apply()
    path = ZG330Backend(backend).log(str(tmp_path))
    assert isinstance(path, str) and os.path.isfile(path) and path.endswith(".json")


def test_from_numpy_refuses_another_element_type():
    dtype = xir.TensorType(xir.IntegerType.UInt8(), [40])
    with pytest.raises(TypeError) as e:
        Tensor.fromNumpy(numpy.zeros(10, numpy.float32), dtype)   # 40 bytes, was taken as uint8
    assert "float32" in str(e.value) and "@uint(8)" in str(e.value)
    assert Tensor.fromNumpy(numpy.arange(40, dtype=numpy.uint8), dtype).tobytes() == bytes(range(40))


def test_md5_error_names_check_md5(tmp_path):
    bad = tmp_path / "tiny_ZG.raw"
    data = bytearray(open(raw_path("tiny"), "rb").read())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    network = xir.Network.CreateFromJsonFile(net_path("tiny"))
    with pytest.raises(XrtError) as e:
        network.loadParamsFromFile(str(bad))
    assert "check_md5=False" in str(e.value)
    network.loadParamsFromFile(str(bad), check_md5=False)


# ---- item 3: sessions from the user's own backends ----------------------------------------

def test_2_2_2_init_then_init_and_create_by_order(device):
    network = load()
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 10)
    ref = reference("tiny", raw)
    backend = ZG330Backend.Init()
    backend.init(network, device)                       # the C++ recipe: init(network, device)
    zg330_backend = ZG330Backend(backend)
    zg330_backend.disableMergeHardOp()
    host = HostBackend.Init()
    host.init(network.view(0), device)
    sess = Session.CreateWithBackends(network.view(0), [backend, host])
    sess.apply()
    assert not zg330_backend.mergeHardOp()
    assert_outputs(network, sess.forward([Tensor(raw, network.inputOp()[0].dtype())]), ref)
    by_order = Session.CreateByOrder(network.view(0), [ZG330Backend.Init(), HostBackend.Init()],
                                     [device, HostDevice.Default()])
    by_order.apply()
    assert_outputs(network, by_order.forward([Tensor(raw, network.inputOp()[0].dtype())]), ref)
    with pytest.raises(XrtError) as e:
        Session.CreateWithBackends(network.view(0), [ZG330Backend.Init()])
    assert "init(network_view, device)" in str(e.value)
    with pytest.raises(XrtError) as e:                   # an op no given backend owns
        Session.CreateWithBackends(network.view(0), [Backend.Create(ZG330Backend, network.view(0), device)])
    assert "no backend of the session supports it" in str(e.value)


def test_2_3_1_user_reuse_segment_end_to_end(device):
    """§2.3.1 as written, then both backends in sessions of their own: each gives the whole
    network's outputs (weights, instructions and feature maps shared)."""
    network = load("resnet18")
    backend1 = Backend.Create(ZG330Backend, network.view(0), device)
    backend2 = Backend.Create(ZG330Backend, network.view(0), device)
    zg330_backend1 = ZG330Backend(backend1)
    zg330_backend2 = ZG330Backend(backend2)
    instr_bytesize = zg330_backend1.logic_segment_map[SegmentType.INSTR].byte_size
    weight_bytesize = zg330_backend1.logic_segment_map[SegmentType.WEIGHT].byte_size
    ftmp_bytesize = zg330_backend1.logic_segment_map[SegmentType.FTMP].byte_size
    weight_chunk = device.defaultMemRegion().malloc(weight_bytesize, True, 4096)
    instr_chunk = device.defaultMemRegion().malloc(instr_bytesize, True, 4096)
    ftmp_chunk = device.defaultMemRegion().malloc(max(ftmp_bytesize, 1), True, 4096)
    zg330_backend1.userReuseSegment(weight_chunk, SegmentType.WEIGHT)
    zg330_backend2.userReuseSegment(weight_chunk, SegmentType.WEIGHT)
    zg330_backend1.userReuseSegment(instr_chunk, SegmentType.INSTR)
    zg330_backend2.userReuseSegment(instr_chunk, SegmentType.INSTR)
    zg330_backend1.userReuseSegment(ftmp_chunk, SegmentType.FTMP)
    zg330_backend2.userReuseSegment(ftmp_chunk, SegmentType.FTMP)
    backend1.apply()
    backend2.apply()
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 11)
    ref = reference("resnet18", raw)
    for backend in (backend1, backend2):
        sess = Session.CreateWithBackends(network.view(0), [backend, Backend.Create(HostBackend, network.view(0), device)])
        sess.apply()
        assert_outputs(network, sess.forward([Tensor(raw, network.inputOp()[0].dtype())]), ref)


def test_2_3_2_user_connect_network_end_to_end(device):
    """§2.3.2 with two networks made of one (network.view([op ids]): the first ops and the
    rest): the first's output lives in the user's chunk, which is the second's input; the
    second session gives the whole network's outputs."""
    network = load()
    ids = [op.op_id for op in network.ops()]
    view1, view2 = network.view(ids[:3]), network.view(ids[3:])
    zg330_backend1 = ZG330Backend.Init()
    zg330_backend2 = ZG330Backend.Init()
    zg330_backend1.init(view1, device)
    zg330_backend2.init(view2, device)
    output_id = view1.outputs()[0].v_id
    input_id = view2.inputs()[0].v_id
    assert output_id == input_id
    output_size = network.getValueById(output_id).storageBytes()
    memchunk = device.defaultMemRegion().malloc(output_size, True, 4096)
    zg330_backend1.userConnectNetwork(memchunk, output_id)
    zg330_backend2.userConnectNetwork(memchunk, input_id)
    zg330_backend1.apply()
    zg330_backend2.apply()
    assert zg330_backend1.value_info[output_id].phy_addr == memchunk.addr()
    sess1 = Session.CreateWithBackends(view1, [zg330_backend1, Backend.Create(HostBackend, view1, device)])
    sess2 = Session.CreateWithBackends(view2, [zg330_backend2, Backend.Create(HostBackend, view2, device)])
    sess1.apply()
    sess2.apply()
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 12)
    middle = sess1.forward([Tensor(raw, network.inputOp()[0].dtype())])
    assert middle[0].tobytes() == memchunk.read()
    outs = sess2.forward([Tensor(network.getValueById(input_id).dtype(), memchunk, 0)])
    assert_outputs(network, outs, reference("tiny", raw))


def test_view_of_op_ids():
    network = load()
    ids = [op.op_id for op in network.ops()]
    v = network.view(ids[2:5])
    assert v.isRun() and [op.op_id for op in v.ops()] == ids[2:5]
    some = network.view([ids[1], ids[3]])                   # not a run: for a backend
    assert not some.isRun() and [op.op_id for op in some.ops()] == [ids[1], ids[3]]
    with pytest.raises(XrtError) as e:
        network.view([ids[3], ids[1]])
    assert "order" in str(e.value)
    with pytest.raises(XrtError):
        network.view([999999])
    with pytest.raises(XrtError) as e:
        Session.Create([ZG330Backend, HostBackend], some, [Device.Open("mock://zg330"), HostDevice.Default()])
    assert "run of consecutive ops" in str(e.value)
    with pytest.raises(XrtError) as e:                      # a board backend deploys a run
        Backend.Create(ZG330Backend, some, Device.Open("mock://zg330"))
    assert str(ids[3]) in str(e.value) and "consecutive" in str(e.value)


def test_xrt_1_1_2_create_with_backends_of_op_id_views(device):
    """XRT manual §1.1.2 on tiny (Input, hardops, Output): the HostBackend on view([Input,
    Output]) — not a run — and the board backend on view([the hardops]); the session of both
    binds each op to the backend whose view has it, and gives the C API's bytes."""
    network = load()
    ids = [op.op_id for op in network.ops()]
    host_backend = Backend.Create(HostBackend, network.view([ids[0], ids[-1]]), HostDevice.Default())
    zg330_backend = Backend.Create(ZG330Backend, network.view(ids[1:-1]), device)
    sess = Session.CreateWithBackends(network.view(0), [host_backend, zg330_backend])
    sess.apply()
    backend_bindings = sess.backendBindings()
    assert backend_bindings[ids[0]].is_type(HostBackend) and backend_bindings[ids[-1]].is_type(HostBackend)
    assert all(backend_bindings[i].is_type(ZG330Backend) for i in ids[1:-1])
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 14)
    assert_outputs(network, sess.forward([Tensor(raw, network.inputOp()[0].dtype())]), reference("tiny", raw))


# ---- item 4: memory and registers ---------------------------------------------------------

def test_mem_ptr_and_manager(device):
    etm = device.getMemRegion("ETM")
    chunk = etm.malloc(8192, True, 4096)
    assert chunk.begin.ptype() == PtrType.ADDR and chunk.begin.addr() == chunk.addr()
    with pytest.raises(XrtError):
        chunk.begin.cptr()
    assert chunk.byte_size == 8192 and chunk.region.name() == "ETM"
    manager = etm.memManager()
    assert any(c == chunk for c in manager.getAllMemChunk())
    assert manager.getMemChunk(MemPtr(chunk.addr()), 8192) == chunk
    assert manager.getMemChunk(MemPtr(chunk.addr()), 4096) is None
    host = HostDevice.MemRegion().malloc(32)
    assert host.begin.ptype() == PtrType.CPTR and host.begin.cptr() != 0
    assert MemPtr.NullPtr().isNull() and MemPtr(b"abc").ptype() == PtrType.CPTR
    assert MemPtr(bytearray(4), 0x1000).ptype() == PtrType.BOTH
    at = etm.malloc(MemPtr(chunk.addr() + (1 << 20)), 4096)   # malloc(MemPtr begin, byte_size)
    assert at.addr() == chunk.addr() + (1 << 20)


def test_registers_and_device_calls(device, capsys):
    version = device.readReg(0x1C)
    assert version == device.readReg(0x1C, True) == device.readReg("REG", 0x1C, False)
    assert device.defaultRegRegion().read(0x1C) == version
    device.writeReg(0x0C, 0)                              # the layer counter is writable
    assert ZG330Device(device).layerCount() == 0
    with pytest.raises(XrtError):
        device.getRegRegion("NOPE")
    c = device.malloc(4096)
    assert c.isOn(device.defaultMemRegion()) and device.malloc("OCM", 64).isOn(device.getMemRegion("OCM"))
    text = device.showStatus(0)
    assert "region ETM" in text and "region ETM" in capsys.readouterr().out
    zg = ZG330Device(device)
    network = load()
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    ZG330Backend(sess.backends[0]).disableMergeHardOp()
    sess.apply()
    zg.configTimer(device.getMemRegion("ETM").malloc(4096, True, 4096))
    sess.forward([Tensor(seeded_bytes(768, 13), network.inputs()[0].dtype())])
    times = zg.showLayerTime(0, 2)
    assert times == zg.getLayerTime(2) and "layer 1:" in capsys.readouterr().out


def test_section_3_structures_by_their_manual_names(device):
    """ZG330Backend manual §3: ValueInfo.value/real_to/fake_from, HardOpInfo (merge_from),
    LogicSegment/PhySegment info_map and hardop_map, MemChunkInfo, ForwardInfo, and the
    backend's §3.7 attributes, checked against each other and the chunks on the device."""
    network = load()
    backend = Backend.Create(ZG330Backend, network.view(0), device)
    zg = ZG330Backend(backend)
    logic = zg.logic_segment_map
    assert logic[SegmentType.INSTR].segment_type == SegmentType.INSTR and logic[SegmentType.INSTR].byte_size > 0
    assert not zg.is_applied_
    backend.apply()
    values = zg.value_info
    for v_id, info in values.items():
        assert info.value.v_id == v_id
        if info.real:
            assert info.fake_from is None
            for shared in info.real_to:
                assert values[shared.v_id].fake_from.v_id == v_id
        else:
            assert v_id in [v.v_id for v in values[info.fake_from.v_id].real_to]
    assert any(not info.real for info in values.values())        # tiny shares feature maps
    hardops = zg.hardop_info
    merged = [h for h in hardops.values() if h.merge_from]
    assert len(merged) == 1 and merged[0].net_hardop is None
    assert all(hardops[m].merged_into == merged[0].op_id for m in merged[0].merge_from)
    assert all(h.net_hardop.typeKey() == "icraft::xir::HardOp" for h in hardops.values() if not h.merge_from)
    phy = zg.phy_segment_map
    for t in (SegmentType.WEIGHT, SegmentType.INSTR, SegmentType.FTMP):
        chunk = phy[t].single_chunk.memChunk
        assert chunk.addr() == phy[t].phy_addr and chunk.isOn(device.getMemRegion("ETM"))
        assert not phy[t].single_chunk.user_used
    assert set(phy[SegmentType.FTMP].info_map) == {v for v, i in values.items() if i.segment == SegmentType.FTMP}
    assert phy[SegmentType.WEIGHT].hardop_map == {} or set(phy[SegmentType.WEIGHT].hardop_map) == set(hardops)
    out_id = network.outputs()[0].v_id
    assert phy[SegmentType.OUTPUT].multi_chunk[out_id].memChunk.addr() == values[out_id].phy_addr
    fi = zg.forward_info
    assert set(fi.value_map) == set(values) and set(fi.hardop_map) == set(hardops)
    assert all(fi.idx_map[op_id] == hardops[op_id].sync_idx for op_id in fi.idx_map)
    assert zg.is_applied_ and zg.is_mergeHardop and zg.is_etmOptimize and zg.zg330backend_id >= 0
    assert zg.ocmopt == zg.ocmOpt()


def test_remaining_reference_calls(device):
    network = load()
    # Tensor.data: the MemPtr of the first byte
    chunk = device.getMemRegion("ETM").malloc(4096, True, 4096)
    t = Tensor(network.inputs()[0].dtype(), chunk, 256)
    assert t.data().addr() == chunk.addr() + 256 and t.data().ptype() == PtrType.ADDR
    # Backend.setDevice before init, clone, deinit
    b = ZG330Backend.Init().setDevice(device)
    b.init(network.view(0))
    assert b.device == device and b.clone().name() == "ZG330Backend"
    with pytest.raises(XrtError):
        b.setDevice(device)
    b.deinit()
    with pytest.raises(XrtError, match="init"):
        b.apply()
    # Session.clone shares the session; HostDevice.MemRegion is a HostMemRegion; xrt.ZG330Device
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.clone().apply()
    assert sess.isApplied()
    assert isinstance(HostDevice.MemRegion(), HostMemRegion)
    import xrt
    assert xrt.ZG330Device is ZG330Device and ZG330Device(device).clone().getRowsCols() == ZG330Device(device).getRowsCols()


def test_xrt_2_1_mem_ptr_example():
    """XRT manual §2.1, line for line."""
    null_ptr1 = MemPtr.Init()
    null_ptr2 = MemPtr(None)
    null_ptr3 = MemPtr.NullPtr()
    assert null_ptr1.isNull() and null_ptr2.isNull() and null_ptr3.isNull()
    tmp = bytearray(8)
    c_ptr1 = MemPtr(tmp)
    assert c_ptr1.ptype() == PtrType.CPTR and c_ptr1.cptr() == MemPtr(tmp).cptr() and not c_ptr1.isNull()
    addr = 0x40000000
    addr_ptr1 = MemPtr(addr)
    assert addr_ptr1.ptype() == PtrType.ADDR and addr_ptr1.addr() == addr and not addr_ptr1.isNull()
    both_ptr1 = MemPtr(tmp, addr)
    assert both_ptr1.ptype() == PtrType.BOTH and both_ptr1.cptr() == c_ptr1.cptr() and both_ptr1.addr() == addr
    both_ptr2 = 40 + both_ptr1
    assert both_ptr2 - both_ptr1 == 40 and both_ptr1 - both_ptr2 == -40
    assert both_ptr2 - 40 == both_ptr1
    assert both_ptr1 < both_ptr2 and both_ptr1 <= both_ptr2 and both_ptr2 > both_ptr1 and both_ptr2 >= both_ptr1
    with pytest.raises(TypeError):
        both_ptr1 < addr_ptr1


def test_xrt_1_5_memory_info_example(device):
    """XRT manual §1.5 on the simulated board's ETM (the vendor's "plddr")."""
    plddr_region = device.getMemRegion("ETM")
    base = plddr_region.memManager().getMemRegionInfo()["base"]
    chunk1 = plddr_region.malloc(1024)
    chunk2 = plddr_region.malloc(MemPtr(base + (1 << 30)), 1024)
    pl_chunks = plddr_region.memManager().getAllMemChunk()
    assert chunk1 in pl_chunks and chunk2 in pl_chunks and chunk2.addr() == base + (1 << 30)
    unique_chunk = plddr_region.memManager().getMemChunk(MemPtr(base + (1 << 30)), 1024)
    assert unique_chunk == chunk2
    assert plddr_region.memManager().getMemChunk(MemPtr(base + (1 << 30) + 4096), 1024) is None
