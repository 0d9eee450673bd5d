"""The one deployment (runtime/deploy/xrt-deployment.h) through GObject Introspection: the
object the workbench, `xrt-run` and the sweep deploy with, reachable from Python as
Xrt.Deployment with its annotations (tensor arrays, nullable URL, errors)."""
import pytest

from conftest import net_path, raw_path


def test_deployment_plan_apply_forward():
    from _zhuge import GLib, Xrt
    import xir

    net = xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))
    dep = Xrt.Deployment.new(net._obj)
    assert dep.get_target_url() == "mock://zg330"
    assert dep.targets_simulated_board()
    assert not dep.is_compiler_placed()
    assert dep.describe_params() == raw_path("tiny")
    with pytest.raises(GLib.Error):
        dep.apply()           # no board yet
    dep.open_board(None)      # the board of the compile target
    dep.disable_merge_hardop()
    dep.apply()
    assert dep.get_device().get_url() == "mock://zg330"
    inputs = dep.make_inputs(0)
    assert len(inputs) == len(net.inputs())
    outputs = dep.forward(inputs)
    assert len(outputs) == len(net.outputs())
    assert Xrt.Deployment.input_seed(2) == 1062
    assert Xrt.Deployment.params_path_for("a/b.json") == "a/b.raw"


def test_deployment_synthetic_params_say_their_seed():
    from _zhuge import Xrt
    import xir

    net = xir.Network.CreateFromJsonFile(net_path("tiny"))
    dep = Xrt.Deployment.new(net._obj)
    dep.use_synthetic_params()
    assert dep.describe_params() == "synthetic params (seed 330)"
