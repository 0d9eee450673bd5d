"""Fixtures of the Python API tests: the demo networks of the build, the real samples of
../shared (skipped when absent), and the C API's answers through `xrt-run` (the CLI links
only the C runtime), so that each Python example is checked against the C API on the same
inputs."""
import os
import shutil
import subprocess
import tempfile

import pytest

DATA = os.environ.get("ZW_DATA_DIR", "")
SHARED = os.environ.get("ZW_SHARED_DIR", "")
XRT_RUN = os.environ.get("XRT_RUN", "xrt-run")


_basetemp = None


def pytest_configure(config):
    """tmp_path's folders go under a folder of this run's own, removed when the run ends
    (pytest would keep the last three runs' under TMPDIR/pytest-of-USER): tests remove what
    they make. A --basetemp given on the command line is left as it is."""
    global _basetemp
    if config.option.basetemp is None:
        _basetemp = tempfile.mkdtemp(prefix="zw-pytest-")
        config.option.basetemp = _basetemp


def pytest_unconfigure(config):
    if _basetemp is not None:
        shutil.rmtree(_basetemp, ignore_errors=True)


def net_path(name):
    return os.path.join(DATA, "networks", f"{name}_ZG.json")


def raw_path(name):
    return os.path.join(DATA, "networks", f"{name}_ZG.raw")


@pytest.fixture
def tiny():
    import xir
    return xir.Network.CreateFromJsonFile(net_path("tiny")).loadParamsFromFile(raw_path("tiny"))


@pytest.fixture
def device():
    from xrt import Device
    return Device.Open("mock://zg330")


def seeded_bytes(n, seed):
    """The same bytes for the same (n, seed): a little LCG, no numpy needed."""
    out = bytearray(n)
    x = seed * 2654435761 % 2 ** 32
    for i in range(n):
        x = (1103515245 * x + 12345) % 2 ** 31
        out[i] = (x >> 16) & 0xFF
    return bytes(out)


def c_api_outputs(json, raw, input_bytes, *options):
    """Runs one forward through the C API (`xrt-run run`) on @input_bytes and returns
    {v_id: bytes} of every value it dumped (HQB: the bytes as stored)."""
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "input.bin")
        with open(inp, "wb") as f:
            f.write(input_bytes)
        dump = os.path.join(tmp, "dump")
        args = [XRT_RUN, "run", json, "--input", inp, "--dump", dump, "--dump-format", "HQB", *options]
        if raw:
            args[3:3] = ["--raw", raw]
        r = subprocess.run(args, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out = {}
        for name in os.listdir(dump):
            if name.endswith(".ftmp"):
                with open(os.path.join(dump, name), "rb") as f:
                    out[int(name[:-5])] = f.read()
        return out


def shared_file(rel):
    path = os.path.join(SHARED, rel)
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent (../shared is not beside the checkout)")
    return path
