"""The vendor's Python examples, transcribed with mock://zg330 and our demo network, each
checked against the C API (xrt-run) on the same inputs; numpy round trips; exceptions that
carry the runtime's message.

ZG330Backend manual: 2.2.1 (Session.Create), 2.2.2 (Backend.Create), 2.3.1 (userReuseSegment),
2.3.2 (userConnectNetwork), 2.3.3 (disableMergeHardOp), 2.3.4 (disableEtmOptimize), 2.3.5
(ocmOptimize). XRT manual: 1.3.1 forward, 1.3.2 forward into given outputs, 1.3.3 stepTo,
1.4.3 setDumpOutputs, 1.4.4 callbacks, 1.2 dumpSnapshot / 1.1.3 CreateWithSnapshot.
"""
import os

import numpy
import pytest

import xir
from xrt import *
from host_backend import *
from zg330backend import *

from conftest import c_api_outputs, net_path, raw_path, seeded_bytes, shared_file


def input_tensor(network, seed=1):
    v = network.inputs()[0]
    return Tensor.fromBytes(seeded_bytes(v.storageBytes(), seed), v), seeded_bytes(v.storageBytes(), seed)


def outputs_equal_c_api(network, outs, input_bytes, *options, name="tiny"):
    ref = c_api_outputs(net_path(name), raw_path(name), input_bytes, *options)
    values = network.outputs()
    assert len(outs) == len(values)
    for v, t in zip(values, outs):
        assert t.tobytes() == ref[v.v_id], f"v_id {v.v_id} differs from the C API's"


# ---- ZG330Backend manual §2.1.1 ---------------------------------------------------------

@pytest.fixture
def zhuge_board():
    """A zhuge-board on loopback (ours: the manual's socket board), its socket:// URL."""
    import subprocess
    exe = os.environ.get("ZW_TEST_BOARD")
    if not exe:
        pytest.skip("$ZW_TEST_BOARD (the zhuge-board program) is not set")
    proc = subprocess.Popen([exe, "--listen", "127.0.0.1:0", "--board", "zg330", "--exit-after", "300"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()          # "zhuge-board: serving zg330 on 127.0.0.1:PORT"
        port = int(line.rsplit(":", 1)[1])
        yield f"socket://haps-zg330@127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


def test_2_1_1_open_device(zhuge_board):
    """§2.1.1 as written (its dev_url is each of its URLs but the empty axi one), then a session
    on each device gives the C API's bytes."""
    # 2.配置Device启动的url，打开设备
    axi_url = ""
    socket_url = zhuge_board
    mock_url = "mock://zg330"
    for dev_url in (socket_url, mock_url):
        device = Device.Open(dev_url)
        network = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
        sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
        sess.apply()
        t, raw = input_tensor(network, 13)
        outputs_equal_c_api(network, sess.forward([t]), raw)
    with pytest.raises(XrtError):
        Device.Open(axi_url)


# ---- ZG330Backend manual §2.2 -----------------------------------------------------------

def test_2_2_1_session_create(tiny, device):
    json_file = net_path("tiny")
    raw_file = raw_path("tiny")
    host_device = HostDevice.Default()
    zg330_device = device
    network = xir.Network.CreateFromJsonFile(json_file)
    network.loadParamsFromFile(raw_file)
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [zg330_device, host_device])
    sess.apply()
    zg330_backend = ZG330Backend(sess.backends[0])
    assert zg330_backend.name() == "ZG330Backend"
    assert HostBackend(sess.backends[1]).name() == "HostBackend"
    bindings = sess.backendBindings()
    kinds = {op.op_id: op.typeKey() for op in network.ops()}
    hard = [op_id for op_id, k in kinds.items() if k == "icraft::xir::HardOp"]
    assert bindings[hard[0]].is_type(ZG330Backend) and not bindings[hard[0]].is_type(HostBackend)
    for op_id, backend in bindings.items():
        expected = "ZG330Backend" if kinds[op_id] == "icraft::xir::HardOp" else "HostBackend"
        assert backend.name() == expected
    t, raw = input_tensor(network)
    outputs_equal_c_api(network, sess.forward([t]), raw)


def test_2_2_2_backend_create(device):
    network = xir.Network.CreateFromJsonFile(net_path("tiny"))
    network.loadParamsFromFile(raw_path("tiny"))
    backend = Backend.Create(ZG330Backend, network.view(0), device)
    zg330_backend = ZG330Backend(backend)
    assert not backend.isApplied()
    backend.apply()
    assert backend.isApplied()
    phy = zg330_backend.phy_segment_map
    assert phy[SegmentType.WEIGHT].byte_size >= zg330_backend.logic_segment_map[SegmentType.WEIGHT].byte_size > 0


# ---- §2.3 -----------------------------------------------------------------------------

def test_2_3_1_user_reuse_segment(device):
    network = xir.Network.CreateFromJsonFile(net_path("resnet18"))
    network.loadParamsFromFile(raw_path("resnet18"))
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
    for zg in (zg330_backend1, zg330_backend2):
        phy = zg.phy_segment_map
        assert phy[SegmentType.WEIGHT].phy_addr == weight_chunk.addr()
        assert phy[SegmentType.INSTR].phy_addr == instr_chunk.addr()
        assert phy[SegmentType.FTMP].phy_addr == ftmp_chunk.addr()
        assert phy[SegmentType.WEIGHT].user_used


def test_2_3_2_user_connect_network(device):
    network = xir.Network.CreateFromJsonFile(net_path("tiny"))
    network.loadParamsFromFile(raw_path("tiny"))
    backend1 = Backend.Create(ZG330Backend, network.view(0), device)
    backend2 = Backend.Create(ZG330Backend, network.view(0), device)
    zg330_backend1 = ZG330Backend(backend1)
    zg330_backend2 = ZG330Backend(backend2)
    output_id = network.outputs()[0].v_id
    input_id = network.inputs()[0].v_id
    size = max(network.getValueById(output_id).storageBytes(), network.getValueById(input_id).storageBytes())
    memchunk = device.defaultMemRegion().malloc(size, True, 4096)
    zg330_backend1.userConnectNetwork(memchunk, output_id)
    zg330_backend2.userConnectNetwork(memchunk, input_id)
    backend1.apply()
    backend2.apply()
    assert zg330_backend1.value_info[output_id].phy_addr == memchunk.addr()
    assert zg330_backend2.value_info[input_id].phy_addr == memchunk.addr()


@pytest.mark.parametrize("option, cli", [("merge", "--no-merge"), ("etm", "--no-etm-opt")])
def test_2_3_3_and_2_3_4_disable(device, option, cli):
    network = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    zg_backend = ZG330Backend(sess.backends[0])
    if option == "merge":
        zg_backend.disableMergeHardOp()
    else:
        zg_backend.disableEtmOptimize()
    sess.apply()
    if option == "merge":
        assert not zg_backend.mergeHardOp()
        assert not any(isinstance(f[0], xir.MergedOperation) for f in sess.getForwards())
    else:
        assert not zg_backend.etmOptimize()
    t, raw = input_tensor(network, 2)
    outputs_equal_c_api(network, sess.forward([t]), raw, cli)


@pytest.mark.parametrize("opt, cli", [(OcmOpt.NONE, "none"), (OcmOpt.OPTION1, "1"), (OcmOpt.OPTION2, "2"),
                                      (OcmOpt.OPTION3, "3"), (OcmOpt.BEST_SCORE, "best")])
def test_2_3_5_ocm_optimize(device, opt, cli):
    network = xir.Network.CreateFromJsonFile(net_path("resnet18")).loadParamsFromFile(raw_path("resnet18"))
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    zg_backend = ZG330Backend(sess.backends[0])
    zg_backend.ocmOptimize(opt)
    sess.apply()
    if opt != OcmOpt.BEST_SCORE:
        assert zg_backend.ocmOpt() == opt
    in_ocm = [v for v in zg_backend.value_info.values() if v.is_ocm]
    assert (len(in_ocm) == 0) == (opt == OcmOpt.NONE)
    t, raw = input_tensor(network, 3)
    outputs_equal_c_api(network, sess.forward([t]), raw, "--ocm", cli, name="resnet18")


def test_2_3_5_ocm_opt_is_the_runtime_enum():
    """OcmOpt is the runtime's one enum (Zw.OcmOpt) under the vendor's names: a member for
    every value of the GIR enum, with its number and the table's name."""
    from _zhuge import Zw
    gir = sorted(int(v) for v in Zw.OcmOpt.__enum_values__)
    assert [int(m) for m in OcmOpt] == gir
    assert [m.name for m in OcmOpt][:5] == ["BEST_SCORE", "NONE", "OPTION1", "OPTION2", "OPTION3"]
    for m in OcmOpt:
        assert m.name == Zw.OcmOpt.to_string(m)
        assert Zw.OcmOpt.from_string(m.name) == (True, m)
    assert OcmOpt(2) is OcmOpt.OPTION2


# ---- XRT manual §1.3, §1.4 --------------------------------------------------------------

def test_forward_into_given_outputs(tiny, device):
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    sess.apply()
    t, raw = input_tensor(tiny, 4)
    output_tensors = []
    for output in tiny.outputs():
        output_chunk = device.defaultMemRegion().malloc(output.storageBytes(), True, 4096)
        output_tensors.append(Tensor(output, output_chunk, 0))
    assert sess.forward([t], output_tensors) is None
    outputs_equal_c_api(tiny, output_tensors, raw)
    assert output_tensors[0].isOn(device.defaultMemRegion())


def test_step_to_every_op_equals_dump(tiny, device, tmp_path):
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    ZG330Backend(sess.backends[0]).disableMergeHardOp()
    sess.apply()
    t, raw = input_tensor(tiny, 5)
    ref = c_api_outputs(net_path("tiny"), raw_path("tiny"), raw, "--no-merge")
    checked = 0
    for op in sess.networkView().ops():
        outs = sess.stepTo(op.op_id, [t])
        assert len(outs) == op.outputsNum()
        for output, tensor in zip(op.outputs(), outs):
            v_id = output.v_id
            if v_id in ref:
                assert tensor.tobytes() == ref[v_id], f"stepTo({op.op_id}) output v_id {v_id}"
                checked += 1
    assert checked >= 5


def test_dump_outputs_and_log(tiny, device, tmp_path, capfd):
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    sess.apply()
    sess.setDumpOutputs(True, str(tmp_path), "HQB")
    sess.setLogIO(True)
    sess.setLogTime(True)
    t, raw = input_tensor(tiny, 6)
    sess.forward([t])
    ref = c_api_outputs(net_path("tiny"), raw_path("tiny"), raw)
    dumped = {int(p.stem): p.read_bytes() for p in tmp_path.glob("*.ftmp")}
    assert dumped == ref
    err = capfd.readouterr().err
    assert "opId:" in err and "HardOp(Merged)" in err


def test_callbacks_and_time_profile(tiny, device):
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    sess.apply()
    pre, post = [], []
    sess.setPreCallBack(lambda s, op, backend, outs: pre.append(backend.name()))
    sess.setPostCallBack(lambda s, op, backend, outs: post.append(len(outs)))
    sess.enableTimeProfile(True)
    t, _ = input_tensor(tiny, 7)
    sess.forward([t])
    assert len(pre) == len(post) == len(sess.getForwards())
    results = sess.timeProfileResults()
    assert set(results) == {f[0].op_id for f in sess.getForwards()}
    assert abs(sum(r[0] for r in results.values()) - sess.totalTime()) < 1e-6
    for total, memcpy, hard, other in results.values():
        assert abs(total - (memcpy + hard + other)) < 1e-9


def test_snapshot_round_trip(tiny, device, tmp_path):
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    ZG330Backend(sess.backends[0]).ocmOptimize(OcmOpt.OPTION2)
    sess.apply()
    path = tmp_path / "tiny.snapshot"
    sess.dumpSnapshot(str(path))
    restored = Session.CreateWithSnapshot(str(path), [ZG330Backend, HostBackend],
                                          [Device.Open("mock://zg330"), HostDevice.Default()], network=tiny)
    assert ZG330Backend(restored.backends[0]).ocmOpt() == OcmOpt.OPTION2
    t, _ = input_tensor(tiny, 8)
    a = [x.tobytes() for x in sess.forward([t])]
    b = [x.tobytes() for x in restored.forward([t])]
    assert a == b


def test_snapshot_through_symlink_and_fifo(tiny, device, tmp_path):
    """dumpSnapshot goes through the one writer: a symlink is written through to its target,
    a FIFO's reader gets the bytes; a FIFO given to CreateWithSnapshot is refused at once."""
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    sess.apply()
    link = tmp_path / "link.snapshot"
    link.symlink_to("real.snapshot")
    sess.dumpSnapshot(str(link))
    assert link.is_symlink()
    assert b"\nsha256 " in (tmp_path / "real.snapshot").read_bytes()
    fifo = tmp_path / "pipe.snapshot"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)   # the reader first: a FIFO's writer waits for one
    sess.dumpSnapshot(str(fifo))
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    os.close(fd)
    assert b"\nsha256 " in data and fifo.is_fifo()
    with pytest.raises(XrtError) as e:
        Session.CreateWithSnapshot(str(fifo), [ZG330Backend, HostBackend],
                                   [Device.Open("mock://zg330"), HostDevice.Default()], network=tiny)
    assert "not a regular file" in str(e.value) and "pipe.snapshot" in str(e.value)


# ---- Tensor and numpy ---------------------------------------------------------------------

def test_numpy_round_trips(tiny):
    v = tiny.inputs()[0]
    dtype = Tensor.fromBytes(bytes(v.storageBytes()), v).numpy().dtype   # the value's storage type
    assert dtype == numpy.uint8                                           # the image input
    arr = (numpy.arange(v.storageBytes()) % 251).astype(dtype).reshape(v.shape())
    t = Tensor.fromNumpy(arr, v)
    assert numpy.array_equal(numpy.asarray(t), arr)
    # a host tensor is seen without a copy: writes through numpy reach the tensor
    view = t.numpy()
    view.flat[0] = 42
    assert t.tobytes()[0] == 42
    # a float array typed by its own dtype; fp32 -> int8 with scales -> fp32
    f = numpy.linspace(-1.0, 1.0, 64, dtype=numpy.float32).reshape(1, 4, 4, 4)
    tf = Tensor.fromNumpy(f)
    assert tf.shape() == [1, 4, 4, 4]
    dt = Tensor.makeDType("@sint(8)", [1, 4, 4, 4], "NCHW", scales=[1 / 127.0] * 4, scale_axis=1)
    q = tf.quantize(dt)
    back = q.dequantize().numpy()
    assert numpy.allclose(back, f, atol=0.5 / 127)
    assert numpy.array_equal(q.dequantize().numpy(), back)   # deterministic
    # reshape and to(region) keep the bytes
    r = t.reshape([1, 768])
    assert r.tobytes() == t.tobytes() and r.shape() == [1, 768]


def test_tensor_to_device_and_back(tiny, device):
    v = tiny.inputs()[0]
    t, raw = input_tensor(tiny, 9)
    on_etm = t.to(device.getMemRegion("ETM"))
    assert on_etm.isOn(device.getMemRegion("ETM"))
    back = on_etm.to(HostDevice.Default().defaultMemRegion())
    assert back.tobytes() == raw
    assert numpy.array_equal(numpy.asarray(on_etm).ravel().view(numpy.uint8), numpy.frombuffer(raw, numpy.uint8))


# ---- errors -------------------------------------------------------------------------------

def test_errors_carry_the_runtime_message(tmp_path, device):
    with pytest.raises(XrtError) as e:
        xir.Network.CreateFromJsonFile(str(tmp_path / "missing.json"))
    assert "missing.json" in str(e.value)
    bad = tmp_path / "bad.json"
    bad.write_text('{"ops": [{"op_id": 1e20}]}')
    with pytest.raises(XrtError) as e:
        xir.Network.CreateFromJsonFile(str(bad))
    assert "bad.json" in str(e.value)
    with pytest.raises(XrtError) as e:
        Device.Open("pcie://zg330")
    assert "mock://zg330" in str(e.value)
    network = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    sess.apply()
    with pytest.raises(XrtError) as e:
        ZG330Backend(sess.backends[0]).ocmOptimize(OcmOpt.NONE)
    assert "before apply" in str(e.value)
    with pytest.raises(XrtError) as e:
        sess.stepTo(999999, [])
    assert "999999" in str(e.value)
    with pytest.raises(NotImplementedError) as e:
        ZG330Device(device).mmuModeSwitch(True)
    assert "mmuModeSwitch" in str(e.value)


# ---- Buyi ---------------------------------------------------------------------------------

def test_buyi_session(tmp_path):
    from buyi_backend import BuyiBackend
    network = xir.Network.CreateFromJsonFile(shared_file("real/yolov5s_plin_BY.json")).fakeParams(330)
    device = Device.Open("mock://buyi")
    sess = Session.Create([BuyiBackend, HostBackend], network.view(0), [device, HostDevice.Default()])
    buyi = BuyiBackend(sess.backends[0])
    with pytest.raises(XrtError) as e:
        buyi.ocmOptimize(OcmOpt.OPTION1)
    assert "BuyiBackend" in str(e.value)
    sess.apply()
    assert not buyi.mergeHardOp()
    assert buyi.logic_segment_map[SegmentType.FTMP].byte_size == 10137600
    v = network.inputs()[0]
    outs = sess.forward([Tensor.fromBytes(seeded_bytes(v.storageBytes(), 1), v)])
    assert len(outs) == 3


def test_zg330_device_calls(tiny, device):
    """ZG330Device on the board of a forward: the MPE grid, the layer counter after the
    launches, the per-layer timer, the master core's tile counters."""
    zg = ZG330Device(device)
    rows, cols = zg.getRowsCols()
    assert rows >= 1 and cols >= 1
    sess = Session.Create([ZG330Backend, HostBackend], tiny.view(0), [device, HostDevice.Default()])
    ZG330Backend(sess.backends[0]).disableMergeHardOp()
    sess.apply()
    timer = device.getMemRegion("ETM").malloc(4096, True, 4096)
    zg.configTimer(timer)
    before = zg.layerCount()
    t, _ = input_tensor(tiny, 11)
    sess.forward([t])
    assert zg.layerCount() > before
    assert zg.calcTime() > 0
    times = zg.getLayerTime(1)
    assert len(times) == 1 and times[0] >= 0
    assert zg.readReg(1, 0, 0x0C) == zg.layerCount()      # the layer-count register
    with pytest.raises(XrtError) as e:
        zg.readReg(cols + 5, 0, 0x0C)
    assert str(cols + 5) in str(e.value) or "cid" in str(e.value)
