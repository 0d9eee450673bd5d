"""Shared plumbing of the vendor-named modules (xir, xrt, zg330backend, host_backend,
buyi_backend): loads the runtime's introspection data and turns its errors into Python
exceptions that carry the runtime's message.

The modules are thin: every call goes to the C runtime (libzhuge-runtime) through GObject
Introspection; nothing is computed here. A vendor call that this runtime does not have
raises NotImplementedError naming it, never a silent no-op.
"""
import gi

gi.require_version("GLib", "2.0")
gi.require_version("Xir", "1.0")
gi.require_version("Zw", "1.0")
gi.require_version("Xrt", "1.0")
gi.require_version("Zg330", "1.0")
gi.require_version("Host", "1.0")
gi.require_version("Buyi", "1.0")

from gi.repository import GLib, Xir, Zw, Xrt, Zg330, Host, Buyi  # noqa: E402,F401


class XrtError(RuntimeError):
    """An error of the runtime: the message is the runtime's (file, op or value id, field);
    ``domain`` and ``code`` are the GError's."""

    def __init__(self, message, domain="", code=0):
        super().__init__(message)
        self.domain = domain
        self.code = code


def call(func, *args):
    """Calls a runtime function, turning a GLib.Error into an XrtError."""
    try:
        return func(*args)
    except GLib.Error as e:  # the runtime's GError
        raise XrtError(e.message, e.domain, e.code) from None


def unsupported(what):
    """The vendor's call @what has no counterpart in this runtime."""
    raise NotImplementedError(
        f"{what}: not available in Zhuge Workbench's runtime (it has no counterpart of this vendor call)")


def wrap(cls, obj):
    """Wraps a runtime object in the module class @cls without running its __init__."""
    if obj is None:
        return None
    w = cls.__new__(cls)
    w._obj = obj
    return w
