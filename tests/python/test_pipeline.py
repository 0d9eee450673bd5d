"""Pipelines from Python (issue 38 item 5): a pipeline file and the ZG330Backend manual's
multi-network recipe (§2.3.2) reach the same deployment — the same outputs, byte for byte,
as the C API's whole network — with a Session per network, as the vendor's API has them."""
import os

import pytest

import xir
from xrt import *
from host_backend import *
from zg330backend import *

from conftest import c_api_outputs, net_path, raw_path, seeded_bytes


def write(tmp_path, text):
    path = tmp_path / "pipe.toml"
    path.write_text(text)
    return path


def split_file(tmp_path, k=3, extra=""):
    return write(tmp_path, f'[network.head]\njson = "{net_path("tiny")}"\nops = [0, {k}]\n'
                           f'[network.tail]\njson = "{net_path("tiny")}"\nops = [{k}]\n'
                           f'[connect.features]\nfrom = "head"\nto = "tail"\n{extra}')


@pytest.mark.parametrize("staged", [False, True])
def test_pipeline_file_gives_the_whole_networks_bytes(tmp_path, staged):
    p = Pipeline(split_file(tmp_path))
    assert p.networks() == ["head", "tail"]
    if staged:
        p.forceStaged()
    p.apply()
    (name, value), = p.inputs()           # one free input: the network's, in the head
    assert name == "head"
    raw = seeded_bytes(value.storageBytes(), 12)
    outs = p.forward([Tensor(raw, value.dtype())])
    ref = c_api_outputs(net_path("tiny"), raw_path("tiny"), raw)
    network = xir.Network.CreateFromJsonFile(net_path("tiny"))
    assert [t.tobytes() for t in outs["tail"]] == [ref[v.v_id] for v in network.outputs()]
    modes = {c["from_mode"] for c in p.report()["connections"]}
    assert modes == ({"staged"} if staged else {"zero-copy"})


def test_recipe_and_file_reach_the_same_deployment(tmp_path):
    """§2.3.2 written with the vendor's calls, and the same split as a pipeline file: the same
    connection (value, mode) and the same output bytes."""
    device = Device.Open("mock://zg330")
    network = xir.Network.CreateFromJsonFile(net_path("tiny"))
    network.loadParamsFromFile(raw_path("tiny"))
    ids = [op.op_id for op in network.ops()]
    view1, view2 = network.view(ids[:3]), network.view(ids[3:])
    zg1, zg2 = ZG330Backend.Init(), ZG330Backend.Init()
    zg1.init(view1, device)
    zg2.init(view2, device)
    v_id = view1.outputs()[0].v_id
    chunk = device.defaultMemRegion().malloc(network.getValueById(v_id).storageBytes(), True, 4096)
    zg1.userConnectNetwork(chunk, v_id)
    zg2.userConnectNetwork(chunk, v_id)
    zg1.apply()
    zg2.apply()
    s1 = Session.CreateWithBackends(view1, [zg1, Backend.Create(HostBackend, view1, device)])
    s2 = Session.CreateWithBackends(view2, [zg2, Backend.Create(HostBackend, view2, device)])
    s1.apply()
    s2.apply()
    raw = seeded_bytes(network.inputs()[0].storageBytes(), 5)
    mid = s1.forward([Tensor(raw, network.inputOp()[0].dtype())])
    recipe = s2.forward([Tensor(network.getValueById(v_id).dtype(), chunk, 0)])

    p = Pipeline(split_file(tmp_path))
    p.apply()
    outs = p.forward([Tensor(raw, network.inputOp()[0].dtype())])
    assert [t.tobytes() for t in outs["tail"]] == [t.tobytes() for t in recipe]
    assert [t.tobytes() for t in outs["head"]] == [t.tobytes() for t in mid]
    conn, = p.report()["connections"]
    assert conn["output_v_id"] == v_id and conn["input_v_id"] == v_id
    # a Session per network, as the vendor's API deploys them
    tail = p.session("tail")
    assert [op.op_id for op in tail.networkView().ops()] == ids[3:]


def test_demo_pipeline(tmp_path):
    demo = os.path.join(os.path.dirname(net_path("tiny")), "yolov5s_pipeline.toml")
    p = Pipeline.Create(demo)
    assert p.networks() == ["backbone", "head", "post", "tiny"]
    p.apply()
    p.enableTimeProfile()
    outs = p.forward()
    assert len(outs["post"]) == 3 and len(outs["tiny"]) == 1
    r = p.report()
    assert r["etm"]["board_bytes"] < r["etm"]["apart_bytes"]
    assert r["time"]["pass_ms"] > 0
    assert {c["from_mode"] for c in r["connections"]} == {"zero-copy", "host"}
    # the same networks run apart: the ETM the pass's report counts apart, and more time (the
    # connected values' host transfers the pass does not make)
    apart = p.reportApart()
    assert [n["name"] for n in apart["networks"]] == p.networks()
    assert apart["etm"]["board_bytes"] == r["etm"]["apart_bytes"]
    assert apart["time"]["pass_ms"] > r["time"]["pass_ms"]
    assert abs(apart["time"]["pass_ms"] - sum(n["time_ms"] for n in apart["networks"])) < 1e-9


def test_errors_name_the_file_and_the_field(tmp_path):
    with pytest.raises(XrtError) as e:
        Pipeline(write(tmp_path, '[network.a]\njson = "nowhere.json"\nstage = "x"\n'))
    assert "pipe.toml" in str(e.value) and "stage" in str(e.value)
    p = Pipeline(split_file(tmp_path))
    with pytest.raises(XrtError) as e:
        p.forward()
    assert "forward before apply" in str(e.value)
    with pytest.raises(XrtError):
        p.session("nobody")
    with pytest.raises(TypeError):
        Pipeline(42)
    p.apply()
    with pytest.raises(XrtError) as e:
        p.forward([])
    assert "0 input tensor(s) given" in str(e.value)


def test_one_networks_options(tmp_path):
    """setNetworkOptions: that network's deploy report has them, the other keeps the file's;
    after apply, or for a network the pipeline lacks, a clear error."""
    p = Pipeline(split_file(tmp_path))
    p.setNetworkOptions("tail", mergeHardOp=False, ocmOptimize=OcmOpt.NONE)
    p.apply()
    p.enableTimeProfile()
    p.forward()
    nets = {n["name"]: n["report"] for n in p.report()["networks"]}
    assert nets["tail"]["options"]["merge_hardop"] is False
    assert nets["tail"]["options"]["ocm_requested"] == "NONE"
    assert nets["head"]["options"]["merge_hardop"] is True
    with pytest.raises(XrtError) as e:
        p.setNetworkOptions("tail")
    assert "before apply" in str(e.value)
    with pytest.raises(XrtError) as e:
        Pipeline(split_file(tmp_path)).setNetworkOptions("nobody")
    assert "nobody" in str(e.value)
