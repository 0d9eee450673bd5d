"""The host reference run (issue 36 item 2), as the XRT manual writes it:
Session.Create([HostBackend], view, [HostDevice.Default()]) runs every HardOp on the host with
the board's own behavioural kernels, so its outputs are the board session's bytes — on the four
demo networks, the real ZG330 sample and the real Buyi compile (synthetic params, seed 330, as
the CLI uses; skipped when ../shared is absent) — and Session.compareWithHost says so in one
call."""
import pytest

import xir
from xrt import *
from host_backend import HostBackend
from zg330backend import ZG330Backend

from conftest import net_path, raw_path, seeded_bytes, shared_file


def inputs_of(network, seed=7):
    return [Tensor.fromBytes(seeded_bytes(v.storageBytes(), seed + k), v) for k, v in enumerate(network.inputs())]


def host_equals_board(network, board_class, url):
    device = Device.Open(url)
    host_device = HostDevice.Default()
    board = Session.Create([board_class, HostBackend], network.view(0), [device, host_device])
    board.apply()
    host = Session.Create([HostBackend], network.view(0), [host_device])
    assert [b.name() for b in host.backends] == ["HostBackend"]
    host.apply()
    inputs = inputs_of(network)
    board_out = board.forward(inputs)
    host_out = host.forward(inputs)
    assert len(board_out) == len(host_out) > 0
    for k, (b, h) in enumerate(zip(board_out, host_out)):
        assert b.tobytes() == h.tobytes(), f"output {k} differs between the board and the host"
    identical, report = board.compareWithHost(inputs)
    assert identical, report
    assert report.count("identical") == len(board_out)


@pytest.mark.parametrize("name", ["tiny", "twoin", "mobilenetv2", "resnet18", "yolov5s"])
def test_demo_networks(name):
    network = xir.Network.CreateFromJsonFile(net_path(name)).loadParamsFromFile(raw_path(name))
    host_equals_board(network, ZG330Backend, "mock://zg330")


def test_real_zg330():
    network = xir.Network.CreateFromJsonFile(shared_file("real/yolov5s_plin_352x640_ZG.json")).fakeParams(330)
    host_equals_board(network, ZG330Backend, "mock://zg330")


def test_real_buyi():
    from buyi_backend import BuyiBackend
    network = xir.Network.CreateFromJsonFile(shared_file("real/yolov5s_plin_BY.json")).fakeParams(330)
    host_equals_board(network, BuyiBackend, "mock://buyi")


def test_hardops_go_to_the_first_backend_that_takes_them():
    network = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
    sess = Session.Create([ZG330Backend, HostBackend], network.view(0),
                          [Device.Open("mock://zg330"), HostDevice.Default()])
    hard = [op.op_id for op in network.ops() if op.typeKey() == "icraft::xir::HardOp"]
    bindings = sess.backendBindings()
    assert hard and all(bindings[i].name() == "ZG330Backend" for i in hard)
    host = Session.Create([HostBackend], network.view(0), [HostDevice.Default()])
    assert all(b.name() == "HostBackend" for b in host.backendBindings().values())
