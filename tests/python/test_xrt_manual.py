"""The XRT manual's Python examples and Session.getForwards in the vendor's shape (issue 36).

getForwards returns the vendor's ForwardOps (session.h; the Python reference:
List[Tuple[xir.Operation, xrt.Backend, Callable[[Operation, List[Tensor], List[Tensor],
Backend], List[Tensor]], List[int], List[int]]]): the tests run a network by calling each
step's forward function in turn, as the vendor's Session::forward does, and compare the
outputs byte for byte with the C API's (xrt-run) on the demo networks, merged or not.

Examples here (the others are in test_vendor_api.py and test_vendor_parity.py):
XRT manual §1.1.1 (Session.Create by priority, CreateByOrder), §1.1.3 + §1.2
(CreateWithSnapshot as written, dumpSnapshot), and forward on the two-input demo network
(forward(inputs) takes one tensor per network input, in order).
"""
import os
import subprocess
import tempfile

import pytest

import xir
from xrt import *
from host_backend import *
from zg330backend import *

from conftest import XRT_RUN, net_path, raw_path, seeded_bytes

DEMOS = ["tiny", "twoin", "resnet18", "mobilenetv2", "yolov5s"]


def load(name):
    network = xir.Network.CreateFromJsonFile(net_path(name))
    network.loadParamsFromFile(raw_path(name))
    return network


def c_api(name, inputs, *options):
    """{v_id: bytes} of one forward of the C API (xrt-run run, HQB dump) on @inputs (bytes, one
    per network input, given as icraft-run does: "a;b")."""
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for k, data in enumerate(inputs):
            files.append(os.path.join(tmp, f"in{k}.bin"))
            with open(files[-1], "wb") as f:
                f.write(data)
        dump = os.path.join(tmp, "dump")
        r = subprocess.run([XRT_RUN, "run", net_path(name), "--raw", raw_path(name), "--input", ";".join(files),
                            "--dump", dump, "--dump-format", "HQB", *options], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return {int(n[:-5]): open(os.path.join(dump, n), "rb").read() for n in os.listdir(dump) if n.endswith(".ftmp")}


def seeded_inputs(network, seed):
    raws = [seeded_bytes(v.storageBytes(), seed + k) for k, v in enumerate(network.inputs())]
    return [Tensor(raw, v.dtype()) for raw, v in zip(raws, network.inputs())], raws


def assert_outputs(network, outs, ref):
    values = network.outputs()
    assert len(outs) == len(values) > 0
    for v, t in zip(values, outs):
        assert t.tobytes() == ref[v.v_id], f"v_id {v.v_id} differs from the C API's"


# ---- Session.getForwards -------------------------------------------------------------------

def run_by_forwards(sess, inputs):
    """The vendor's Session::forward written with getForwards: each step's forward function on
    the tensors of the values it reads (the Input op: the inputs), its outputs kept by v_id."""
    tmap = {}
    for op, backend, forward, input_ids, output_ids in sess.getForwards():
        ins = inputs if op.typeKey() == "icraft::xir::Input" else [tmap[i] for i in input_ids]
        outs = forward(op, ins, [], backend)
        for t in outs:
            assert t.dtype().v_id in output_ids
            tmap[t.dtype().v_id] = t
    return [tmap[v.v_id] for v in sess.network_view.outputs()]


@pytest.mark.parametrize("merge", [True, False], ids=["merge", "no-merge"])
@pytest.mark.parametrize("name", DEMOS)
def test_get_forwards_runs_the_network_step_by_step(name, merge):
    network = load(name)
    device = Device.Open("mock://zg330")
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    if not merge:
        ZG330Backend(sess.backends[0]).disableMergeHardOp()
    sess.apply()
    forwards = sess.getForwards()
    # the vendor's shape: (Operation, Backend, FForwardOp, [int], [int]) per step
    for op, backend, forward, input_ids, output_ids in forwards:
        assert isinstance(op, xir.Operation) and isinstance(backend, Backend) and callable(forward)
        assert all(isinstance(i, int) for i in input_ids + output_ids)
    merged = [f[0] for f in forwards if isinstance(f[0], xir.MergedOperation)]
    assert bool(merged) == merge
    for m in merged:
        assert m.typeKey() == "icraft::xir::HardOp" and len(m.mergeFrom()) > 1
    bindings = sess.backendBindings()
    for op, backend, *_ in forwards:
        if not isinstance(op, xir.MergedOperation):
            assert backend.name() == bindings[op.op_id].name()
    inputs, raws = seeded_inputs(network, 21)
    ref = c_api(name, raws, *([] if merge else ["--no-merge"]))
    assert_outputs(network, run_by_forwards(sess, inputs), ref)
    # and the session forwards as before
    assert_outputs(network, sess.forward(inputs), ref)


def test_get_forwards_on_the_host_reference_run():
    network = load("tiny")
    sess = Session.Create([HostBackend], network.view(0), [HostDevice.Default()])
    sess.apply()
    assert all(f[1].name() == "HostBackend" for f in sess.getForwards())
    assert len(sess.getForwards()) == len(network.ops())
    inputs, raws = seeded_inputs(network, 5)
    assert_outputs(network, run_by_forwards(sess, inputs), c_api("tiny", raws))


def test_get_forwards_function_is_the_steps_alone():
    """The forward function runs its step as the backend does: no callbacks, logs or
    profile; it fills given output tensors; it refuses another op, the wrong number of
    inputs and a session not applied, naming what is wrong."""
    network = load("tiny")
    device = Device.Open("mock://zg330")
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    with pytest.raises(XrtError, match="before apply"):
        sess.getForwards()
    ZG330Backend(sess.backends[0]).disableMergeHardOp()
    sess.apply()
    calls = []
    sess.setPreCallBack(lambda s, op, backend, outs: calls.append(op.op_id))
    sess.enableTimeProfile(True)
    inputs, raws = seeded_inputs(network, 9)
    sess.forward(inputs)
    n_calls, profile, total = len(calls), sess.timeProfileResults(), sess.totalTime()
    forwards = sess.getForwards()
    outs = run_by_forwards(sess, inputs)
    assert len(calls) == n_calls                         # no callbacks from the steps alone
    assert sess.timeProfileResults() == profile and sess.totalTime() == total
    # into given tensors: the same bytes, the same tensors back
    op, backend, forward, input_ids, output_ids = forwards[1]
    first = forwards[0][2](forwards[0][0], inputs, [], forwards[0][1])
    mine = [Tensor(network.getValueById(i).dtype()).mallocOn(HostDevice.MemRegion()) for i in output_ids]
    got = forward(op, first, mine, backend)
    assert got == mine
    again = forward(op, first, [], backend)
    assert [t.tobytes() for t in mine] == [t.tobytes() for t in again]
    assert any(any(t.tobytes()) for t in mine)
    with pytest.raises(XrtError, match=f"op {op.op_id}"):
        forward(forwards[2][0], first, [], backend)
    with pytest.raises(XrtError, match="1 value"):
        forward(op, first + first, [], backend)
    with pytest.raises(TypeError, match=r"inputs\[0\]"):
        forward(op, [b"\0" * 768], [], backend)
    assert_outputs(network, outs, c_api("tiny", raws, "--no-merge"))


# ---- XRT manual §1.1.1 -----------------------------------------------------------------------

def GenerateNetwork():
    """The manual's test network; ours is the tiny demo (Input, HardOps, Output)."""
    return load("tiny")


def test_1_1_1_create_by_priority_and_create_by_order():
    """§1.1.1 with the ZG330 for the Buyi (the manual's BuyiBackend on an empty Device()): our
    Device() refuses to exist (an unusable handle), so the board is mock://zg330; the devices
    come in the backends' order (the manual's list has them the other way round)."""
    network = GenerateNetwork()
    board = Device.Open("mock://zg330")

    # 创建Session，按顺序传入想要绑定的后端类型
    sess1 = Session.Create([ZG330Backend, HostBackend], network.view(0), [board, HostDevice.Default()])
    sess1.apply()

    backend_bindings = sess1.backendBindings()
    ops = network.ops()
    assert backend_bindings[ops[0].op_id].is_type(HostBackend)     # Input
    for op in ops[1:-1]:
        assert backend_bindings[op.op_id].is_type(ZG330Backend)    # HardOp
    assert backend_bindings[ops[-1].op_id].is_type(HostBackend)    # Output

    # 也可以使用CreateByOrder方法，将算子按顺序绑定到已有的Backend对象上
    sess2 = Session.CreateByOrder(network.view(0), [ZG330Backend.Init(), HostBackend.Init()],
                                  [Device.Open("mock://zg330"), HostDevice.Default()])
    sess2.apply()
    assert {i: b.name() for i, b in sess2.backendBindings().items()} == \
        {i: b.name() for i, b in backend_bindings.items()}
    inputs, raws = seeded_inputs(network, 3)
    ref = c_api("tiny", raws)
    assert_outputs(network, sess1.forward(inputs), ref)
    assert_outputs(network, sess2.forward(inputs), ref)
    # the manual's own device list, host first: refused naming the backend without a board
    with pytest.raises(XrtError, match="ZG330Backend needs a device"):
        Session.Create([ZG330Backend, HostBackend], network.view(0), [HostDevice.Default(), board])
    with pytest.raises(TypeError, match="comes from"):
        Device()


# ---- XRT manual §1.2 and §1.1.3 --------------------------------------------------------------

def test_1_2_dump_snapshot_and_1_1_3_create_with_snapshot_as_written(tmp_path):
    # 打开设备
    device = Device.Open("mock://zg330")
    # 加载网络
    network = load("resnet18")
    # 创建Session
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])
    # 部署session
    sess.apply()
    # 序列化session，并保存快照文件至指定路径
    filepath = str(tmp_path / "resnet18.snapshot")
    sess.dumpSnapshot(filepath)

    # 直接使用序列化得到的快照文件创建Session
    snapshot_file = filepath
    sess = Session.CreateWithSnapshot(snapshot_file, [ZG330Backend, HostBackend], [device, HostDevice.Default()])

    inputs, raws = seeded_inputs(network, 4)
    assert_outputs(network, sess.forward(inputs), c_api("resnet18", raws))


# ---- forward with two inputs -----------------------------------------------------------------

def test_forward_two_inputs_in_order():
    """forward(inputs) on the two-input demo: one tensor per network input, in order; the C
    API's bytes; swapped inputs give other bytes."""
    network = load("twoin")
    assert len(network.inputs()) == 2 and len(network.inputOp().outputs()) == 2
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0),
                          [Device.Open("mock://zg330"), HostDevice.Default()])
    sess.apply()
    inputs, raws = seeded_inputs(network, 12)
    ref = c_api("twoin", raws)
    assert_outputs(network, sess.forward(inputs), ref)
    swapped = sess.forward([Tensor(raws[1], network.inputs()[0].dtype()), Tensor(raws[0], network.inputs()[1].dtype())])
    assert swapped[0].tobytes() != ref[network.outputs()[0].v_id]
    assert_outputs(network, swapped, c_api("twoin", raws[::-1]))
