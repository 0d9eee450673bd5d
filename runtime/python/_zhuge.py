"""Shared plumbing of the vendor-named modules (xir, xrt, zg330backend, host_backend,
buyi_backend): loads the runtime's introspection data and turns its errors into Python
exceptions that carry the runtime's message.

The modules are thin: every call goes to the C runtime (libzhuge-runtime) through GObject
Introspection; nothing is computed here. A vendor call that this runtime does not have
raises NotImplementedError naming it, never a silent no-op.
"""
import sys


def _no_bindings(missing, exc):
    """The interpreter running this module lacks @missing (PyGObject or numpy): say which
    interpreter that is and how to get one that has it, instead of a bare ModuleNotFoundError."""
    return ImportError(
        f"{missing} is not importable by the Python running this module ({sys.executable}, "
        f"Python {sys.version.split()[0]}): {exc}.\n"
        "The runtime's modules need PyGObject (and numpy for Tensor.numpy); the system's Python has them "
        "(apt install python3-gi python3-numpy). Either run the script with the system interpreter:\n"
        "    meson devenv -C build /usr/bin/python3 script.py\n"
        "or make a venv that sees the system's packages and use its python3:\n"
        "    /usr/bin/python3 -m venv --system-site-packages ~/.venvs/zhuge && . ~/.venvs/zhuge/bin/activate\n"
        "    meson devenv -C build python3 script.py\n"
        "(a pyenv, conda or plain venv interpreter first on PATH has neither; `pip install PyGObject numpy` "
        "into it also works when the GObject Introspection headers are installed.)")


try:
    import gi
except ImportError as e:  # pyenv / conda / a venv without --system-site-packages
    raise _no_bindings("PyGObject (module gi)", e) from None

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


def need(value, types, name, call):
    """TypeError naming argument @name of @call when @value is not one of @types (a class or
    a tuple of them); returns @value."""
    if not isinstance(value, types):
        def tname(t):
            mod = {"_tensor": "xrt", "builtins": ""}.get(t.__module__, t.__module__)
            return f"{mod}.{t.__name__}" if mod else t.__name__
        tnames = " or ".join(tname(t) for t in (types if isinstance(types, tuple) else (types,)))
        raise TypeError(f"{call}: argument {name} must be {tnames}, not {type(value).__name__}")
    return value


def need_list(values, types, name, call):
    """need() for each item of a list argument (argument "name[i]")."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{call}: argument {name} must be a list, not {type(values).__name__}")
    for i, v in enumerate(values):
        need(v, types, f"{name}[{i}]", call)
    return values


def wrap(cls, obj):
    """Wraps a runtime object in the module class @cls without running its __init__."""
    if obj is None:
        return None
    w = cls.__new__(cls)
    w._obj = obj
    return w


# ---- documentation from the runtime's headers -------------------------------------------------
#
# help() on a wrapper shows its docstring followed by the runtime's own documentation of the C
# function it calls, read from the .gir that g-ir-scanner made of the headers: beside the
# typelib in a build tree (meson devenv), or in share/gir-1.0 where it is installed. Without
# a .gir the wrappers keep their own docstrings.

_gir_docs = {}


def _gir_path(namespace):
    import os
    module = getattr(__import__("gi.repository", fromlist=[namespace]), namespace)
    name = f"{namespace}-{module._version}.gir"
    dirs = []
    typelibs = getattr(module, "__path__", None) or []
    for typelib in [typelibs] if isinstance(typelibs, str) else typelibs:
        d = os.path.dirname(typelib)
        dirs.append(d)
        for _ in range(3):  # lib/[triplet/]girepository-1.0 -> share/gir-1.0
            d = os.path.dirname(d)
            dirs.append(os.path.join(d, "share", "gir-1.0"))
    for d in os.environ.get("XDG_DATA_DIRS", "/usr/local/share:/usr/share").split(":"):
        if d:
            dirs.append(os.path.join(d, "gir-1.0"))
    return next((os.path.join(d, name) for d in dirs if os.path.isfile(os.path.join(d, name))), None)


def _load_gir_docs(namespace):
    """{C identifier: text} of the functions of @namespace's .gir ({} without one)."""
    import sys
    if namespace in _gir_docs:
        return _gir_docs[namespace]
    if sys.flags.optimize >= 2:  # python -OO: no docstrings
        return {}
    import re
    import xml.etree.ElementTree as ET
    core = "{http://www.gtk.org/introspection/core/1.0}"
    c_id = "{http://www.gtk.org/introspection/c/1.0}identifier"
    docs = {}
    path = _gir_path(namespace)
    if path is not None:
        def text(node):
            d = node.find(core + "doc") if node is not None else None
            return re.sub(r"[%#](\w)", r"\1", d.text.strip()) if d is not None and d.text else ""
        for tag in ("function", "method", "constructor"):
            for f in ET.parse(path).getroot().iter(core + tag):
                parts = [text(f)] if text(f) else []
                params = f.find(core + "parameters")
                for p in (params if params is not None else []):
                    if text(p) and p.get("name") != "error":
                        parts.append(f"{p.get('name')}: {text(p)}")
                if text(f.find(core + "return-value")):
                    parts.append("Returns: " + text(f.find(core + "return-value")))
                if parts:
                    docs[f.get(c_id)] = "\n".join(parts)
    _gir_docs[namespace] = docs
    return docs


def document(cls, namespace, prefix, table):
    """Appends to the docstring of each method of @cls named in @table the runtime's
    documentation of the C function(s) it calls: {method name: suffix or a tuple of
    suffixes}, each the C function's name without @prefix ("xrt_session_")."""
    docs = _load_gir_docs(namespace)
    for method, suffixes in table.items():
        attr = cls.__dict__[method]
        func = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
        for suffix in (suffixes,) if isinstance(suffixes, str) else suffixes:
            symbol = prefix + suffix
            if symbol in docs:
                head = (func.__doc__ or "").rstrip()
                func.__doc__ = (head + "\n\n" if head else "") + f"The runtime's {symbol}():\n" + docs[symbol]
