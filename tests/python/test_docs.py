"""help() on the vendor-named wrappers shows the runtime's documentation (issue 34): the
prose of the C headers, read from the .gir the build generated."""
import pydoc

import xir
import xrt


def test_session_forward_help_shows_the_headers_prose():
    text = pydoc.render_doc(xrt.Session.forward, renderer=pydoc.plaintext)
    assert "The runtime's xrt_session_forward():" in text
    assert "for a whole network: one per network input" in text
    assert "The runtime's xrt_session_forward_into():" in text


def test_wrappers_keep_their_own_docstring_first():
    doc = xrt.Session.CreateWithSnapshot.__doc__
    assert doc.startswith("CreateWithSnapshot(file, [BuyiBackend, HostBackend], [device, HostDevice.Default()])")
    assert "The runtime's xrt_session_new_from_snapshot():" in doc


def test_network_and_tensor_methods_are_documented():
    assert "The runtime's xir_network_new_from_json_file():" in xir.Network.CreateFromJsonFile.__doc__
    assert "The runtime's xrt_tensor_dequantize():" in xrt.Tensor.dequantize.__doc__
    assert "The runtime's xrt_device_open():" in xrt.Device.Open.__doc__
