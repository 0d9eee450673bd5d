"""xir — the vendor's network module (icraft.xir) on Zhuge Workbench's runtime.

    import xir
    network = xir.Network.CreateFromJsonFile("yolov5s_ZG.json")
    network.loadParamsFromFile("yolov5s_ZG.raw")
    view = network.view(0)
    network.getValueById(10).storageBytes()
"""
from _zhuge import Xir, XrtError, call, document, need, unsupported, wrap

__all__ = ["Network", "NetworkView", "Value", "Operation", "MergedOperation", "TensorType", "Params", "Layout", "IntegerType",
           "FloatType", "ScalarType", "XrtError"]

_G_MAXINT = 2 ** 31 - 1


class Value:
    """A value of a network (a feature map or params): its type and size."""

    def __init__(self, *args):
        unsupported("xir.Value(...) constructor (values come from a network: Network.getValueById)")

    @property
    def v_id(self):
        return self._obj.v_id

    def id(self):
        return self._obj.v_id

    def name(self):
        return self._obj.name or ""

    def storageBytes(self):
        return self._obj.storage_bytes

    def shape(self):
        return list(self._obj.get_shape()) if hasattr(self._obj, "get_shape") else []

    def isParams(self):
        return bool(self._obj.is_params)

    def dtype(self):
        """The value's TensorType (element type, shape, layout, scales): what Tensor(buffer,
        dtype) and Tensor(dtype) take."""
        return wrap(TensorType, self._obj)

    def tensorType(self):
        return self.dtype()

    def __repr__(self):
        return f"xir.Value(v_id={self.v_id}, storageBytes={self.storageBytes()})"


# ---- types: the vendor's IntegerType / FloatType, Layout, TensorType, Params -------------

class ScalarType:
    """An element type by its XIR text ("@sint(8)", "@fp(32)" …): IntegerType.SInt8(),
    FloatType.FP32() …"""

    def __init__(self, text):
        need(text, str, "text", "xir.ScalarType")
        self.text = text if text.startswith("@") else "@" + text

    def bits(self):
        return int(self.text[self.text.index("(") + 1:-1])

    def __eq__(self, other):
        return isinstance(other, ScalarType) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"xir.{type(self).__name__}({self.text!r})"


class IntegerType(ScalarType):
    """sint(x) / uint(x) (XIR manual: IntegerType::SInt8(), IntegerType::UInt(12) …)."""

    @staticmethod
    def SInt(bits):
        return IntegerType(f"@sint({int(bits)})")

    @staticmethod
    def UInt(bits):
        return IntegerType(f"@uint({int(bits)})")


class FloatType(ScalarType):
    """fp(x) / bf(x) (XIR manual: FloatType::FP32(), FloatType::BF16() …)."""

    @staticmethod
    def FP16():
        return FloatType("@fp(16)")

    @staticmethod
    def FP32():
        return FloatType("@fp(32)")

    @staticmethod
    def FP64():
        return FloatType("@fp(64)")

    @staticmethod
    def BF16():
        return FloatType("@bf(16)")


for _bits in (8, 16, 32, 64):
    setattr(IntegerType, f"SInt{_bits}", staticmethod(lambda b=_bits: IntegerType.SInt(b)))
    setattr(IntegerType, f"UInt{_bits}", staticmethod(lambda b=_bits: IntegerType.UInt(b)))


class Layout:
    """A layout by its letters: Layout("NHWC"), Layout.NHWC(), Layout("NCHWc32"); "*" is any."""

    def __init__(self, text="*"):
        need(text, str, "text", "xir.Layout")
        if text.startswith("@layout(") and text.endswith(")"):
            text = text[len("@layout("):-1]
        self.text = text

    def __eq__(self, other):
        return isinstance(other, Layout) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"xir.Layout({self.text!r})"


for _name in ("NHWC", "NCHW", "HWIO", "OIHW", "NC", "HW", "NHW", "NCW", "NWC"):
    setattr(Layout, _name, staticmethod(lambda n=_name: Layout(n)))
Layout.Any = staticmethod(lambda: Layout("*"))


class TensorType(Value):
    """TensorType(element_dtype, shape, layout): a standalone type (no network), as the XIR
    manual builds one: TensorType(FloatType.FP32(), [1, 416, 416, 3], Layout.NHWC()). A
    network value's type is Value.dtype(). Quantised types: TensorType(IntegerType.SInt8(),
    shape, layout, scales=[…], scale_axis=-1)."""

    def __init__(self, element_dtype, shape, layout=None, scales=None, scale_axis=-1, zero_points=None):
        need(element_dtype, (ScalarType, str), "element_dtype", "xir.TensorType")
        need(shape, (list, tuple), "shape", "xir.TensorType")
        need(layout, (Layout, str, type(None)), "layout", "xir.TensorType")
        from _zhuge import Xrt
        text = element_dtype.text if isinstance(element_dtype, ScalarType) else ScalarType(element_dtype).text
        lay = "*" if layout is None else str(layout)
        self._obj = call(Xrt.Tensor.make_dtype, text, lay, [int(d) for d in shape], int(scale_axis),
                         [float(x) for x in (scales or [])], [int(z) for z in (zero_points or [])])

    def element_dtype(self):
        text = self._obj.get_storage_text()
        return (FloatType if text.startswith(("@fp", "@bf")) else IntegerType)(text)

    def elementType(self):
        return self.element_dtype()

    def layout(self):
        return Layout(self._obj.get_layout_text())

    def getAxis(self, axis):
        """The size of axis @axis ('C', 'H' …) of the layout."""
        letters = self._obj.get_layout_text()
        shape = self.shape()
        if axis not in letters or len(letters) != len(shape):
            raise XrtError(f"TensorType.getAxis: layout {letters} of shape {shape} has no axis {axis!r}")
        return shape[letters.index(axis)]

    def numElements(self):
        return self._obj.n_elements

    def dtype(self):
        return self

    def __eq__(self, other):
        return (isinstance(other, Value) and self._obj.get_storage_text() == other._obj.get_storage_text()
                and self._obj.get_layout_text() == other._obj.get_layout_text() and self.shape() == other.shape())

    __hash__ = None

    def __repr__(self):
        return (f"xir.TensorType({self._obj.get_storage_text()}, {self.shape()}, "
                f"{self._obj.get_layout_text()})")


class Params(TensorType):
    """Params(ttype): a params value with its data on the host, zero-filled; fill(f) sets
    element i to f(i) (XIR manual: Params(weight_type).fill<float>(…)); data() is the bytes."""

    def __init__(self, dtype):
        need(dtype, Value, "dtype", "xir.Params")
        from xrt import Tensor
        self._obj = dtype._obj
        self._tensor = Tensor(bytes(dtype.storageBytes()), dtype)

    def isParams(self):
        return True

    def fill(self, f):
        self._tensor.fill(f)
        return self

    def data(self):
        return self._tensor.tobytes()

    def tensor(self):
        return self._tensor


class Operation:
    """An op of a network."""

    def __init__(self, *args):
        unsupported("xir.Operation(...) constructor (ops come from a network: Network.getOpById)")

    @property
    def op_id(self):
        return self._obj.op_id

    def typeKey(self):
        return self._obj.type_key

    def name(self):
        return self._obj.name or ""

    def compileTarget(self):
        return self._obj.target.text

    def inputs(self):
        return [wrap(Value, v) for v in self._obj.get_inputs()]

    def outputs(self):
        return [wrap(Value, v) for v in self._obj.get_outputs()]

    def outputsNum(self):
        return len(self._obj.get_outputs())

    def __getitem__(self, i):
        """op[i]: its i-th output value (the vendor's Operation[i]); the Output op, which has
        none, gives its i-th input (the network's i-th output value)."""
        values = self.outputs() or self.inputs()
        return values[i]

    def __len__(self):
        return len(self.outputs() or self.inputs())

    def __repr__(self):
        return f"xir.Operation(op_id={self.op_id}, {self.typeKey()})"


class MergedOperation(Operation):
    """The op of a merged launch (HardOps run as one, ZG330Backend manual §1.3): its own
    op_id (as Session.getForwards), typeKey HardOp, the hardops it merges (mergeFrom), and the
    values that enter and leave it."""

    def __init__(self, *args):
        raise TypeError("xir.MergedOperation(): it comes from a session's callback of a merged launch")

    @staticmethod
    def _of_step(network_obj, step):
        m = MergedOperation.__new__(MergedOperation)
        m._obj = None
        m._net = network_obj
        m._op_id = step.op_id
        m._from = list(step.get_merge_from())
        m._in = list(step.get_input_ids())
        m._out = list(step.get_output_ids())
        return m

    @property
    def op_id(self):
        return self._op_id

    def typeKey(self):
        return "icraft::xir::HardOp"

    def name(self):
        return "HardOp(Merged)"

    def compileTarget(self):
        return self._net.get_op_by_id(self._from[0]).target.text

    def mergeFrom(self):
        return [wrap(Operation, self._net.get_op_by_id(i)) for i in self._from]

    def inputs(self):
        return [wrap(Value, self._net.get_value(i)) for i in self._in]

    def outputs(self):
        return [wrap(Value, self._net.get_value(i)) for i in self._out]

    def outputsNum(self):
        return len(self._out)

    def __repr__(self):
        return f"xir.MergedOperation(op_id={self._op_id}, merges {self._from})"


class NetworkView:
    """Ops [start, end) of a network (Network.view), or some of them (view([op ids]): opIds())."""

    _op_ids = None

    def opIds(self):
        """The op ids of the view (those of view([op ids]) when it was made from a list)."""
        if self._op_ids is not None:
            return list(self._op_ids)
        return [self._obj.get_op(i).op_id for i in range(self._obj.get_n_ops())]

    def isRun(self):
        """Whether the view is a run of consecutive ops (what a session takes)."""
        return self._op_ids is None

    def network(self):
        return wrap(Network, self._obj.get_network())

    def start(self):
        return self._obj.get_start()

    def size(self):
        return self._obj.get_n_ops()

    def ops(self):
        ops = [wrap(Operation, self._obj.get_op(i)) for i in range(self._obj.get_n_ops())]
        return ops if self._op_ids is None else [op for op in ops if op.op_id in self._op_ids]

    def inputs(self):
        return [wrap(Value, v) for v in self._obj.get_inputs()]

    def outputs(self):
        return [wrap(Value, v) for v in self._obj.get_outputs()]


class Network:
    """A compiled network: the vendor's JSON and its params (.raw)."""

    def __init__(self, *args):
        unsupported("xir.Network(...) constructor (use Network.CreateFromJsonFile)")

    @staticmethod
    def CreateFromJsonFile(path):
        return wrap(Network, call(Xir.Network.new_from_json_file, str(path)))

    @staticmethod
    def CreateFromJsonString(text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        return wrap(Network, call(Xir.Network.new_from_json_data, data, "<string>"))

    def loadParamsFromFile(self, path, check_md5=True):
        flags = Xir.LoadFlags.DEFAULT if check_md5 else Xir.LoadFlags.NO_MD5
        try:
            call(self._obj.load_params_from_file_full, str(path), flags)
        except XrtError as e:
            if "--no-md5" in str(e):   # the CLI's flag; in Python it is check_md5=False
                raise XrtError(str(e) + " (from Python: loadParamsFromFile(path, check_md5=False))",
                               e.domain, e.code) from None
            raise
        return self

    def fakeParams(self, seed=330):
        """Deterministic synthetic params (not a vendor call: for networks without a .raw)."""
        self._obj.fake_params(seed)
        return self

    def name(self):
        return self._obj.get_name()

    def view(self, start=0, end=None):
        """view(start[, end]): ops [start, end) by index (negative from the end); view([op
        ids]): the ops with these ids, in the network's order. A run of consecutive ops is a
        view like any other; other lists (view([0, 1, 2, 5, 6, 7])) are for a backend
        (Backend.Create, init): it owns those ops only (a board backend takes only a run)."""
        if isinstance(start, (list, tuple)):
            if end is not None:
                raise TypeError("Network.view(op_ids): a list of op ids takes no end")
            return self._view_of_ids(list(start))
        need(start, int, "start", "Network.view")
        need(end, (int, type(None)), "end", "Network.view")
        return wrap(NetworkView, call(self._obj.view, start, _G_MAXINT if end is None else end))

    def _view_of_ids(self, op_ids):
        if not op_ids:
            raise XrtError(f"{self._obj.get_path()}: view([]): no op ids")
        index = []
        for op_id in op_ids:
            need(op_id, int, "op_ids[i]", "Network.view")
            op = self._obj.get_op_by_id(op_id)
            if op is None:
                raise XrtError(f"{self._obj.get_path()}: view(op ids): no op with op_id {op_id}")
            index.append(op.index)
        if sorted(index) != index or len(set(index)) != len(index):
            raise XrtError(f"{self._obj.get_path()}: view(op ids): the ops {op_ids} are not in the network's order")
        view = wrap(NetworkView, call(self._obj.view, index[0], index[-1] + 1))
        if index[-1] - index[0] + 1 != len(index):
            # not a run: the ops from the first to the last, of which a backend owns these
            view._op_ids = list(op_ids)
        return view

    def inputOp(self):
        """The network's Input op: inputOp()[i] is its i-th output, the network's i-th input."""
        return self._op_of_kind(Xir.OpKind.INPUT, "Input")

    def outputOp(self):
        """The network's Output op: outputOp()[i] is the network's i-th output value."""
        return self._op_of_kind(Xir.OpKind.OUTPUT, "Output")

    def _op_of_kind(self, kind, name):
        for i in range(self._obj.get_n_ops()):
            op = self._obj.get_op(i)
            if op.kind == kind:
                return wrap(Operation, op)
        raise XrtError(f"{self._obj.get_path()}: the network has no {name} op")

    def ops(self):
        return [wrap(Operation, self._obj.get_op(i)) for i in range(self._obj.get_n_ops())]

    def getOpById(self, op_id):
        op = self._obj.get_op_by_id(op_id)
        if op is None:
            raise XrtError(f"{self._obj.get_path()}: no op with op_id {op_id}")
        return wrap(Operation, op)

    def getValueById(self, v_id):
        v = self._obj.get_value(v_id)
        if v is None:
            raise XrtError(f"{self._obj.get_path()}: no value with v_id {v_id}")
        return wrap(Value, v)

    def inputs(self):
        return [wrap(Value, v) for v in self._obj.get_inputs()]

    def outputs(self):
        return [wrap(Value, v) for v in self._obj.get_outputs()]

    def __repr__(self):
        return f"xir.Network({self.name()!r}, {self._obj.get_n_ops()} ops)"


# help(): each wrapper's docstring, then the runtime's documentation of what it calls
document(Operation, "Xir", "xir_op_", {"inputs": "get_inputs", "outputs": "get_outputs"})
document(NetworkView, "Xir", "xir_network_view_", {
    "network": "get_network", "start": "get_start", "size": "get_n_ops", "ops": "get_op",
    "inputs": "get_inputs", "outputs": "get_outputs"})
document(Network, "Xir", "xir_network_", {
    "CreateFromJsonFile": "new_from_json_file", "CreateFromJsonString": "new_from_json_data",
    "loadParamsFromFile": "load_params_from_file_full", "fakeParams": "fake_params", "name": "get_name",
    "view": "view", "getOpById": "get_op_by_id", "getValueById": "get_value", "inputs": "get_inputs",
    "outputs": "get_outputs"})
