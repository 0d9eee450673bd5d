"""xir — the vendor's network module (icraft.xir) on Zhuge Workbench's runtime.

    import xir
    network = xir.Network.CreateFromJsonFile("yolov5s_ZG.json")
    network.loadParamsFromFile("yolov5s_ZG.raw")
    view = network.view(0)
    network.getValueById(10).storageBytes()
"""
from _zhuge import Xir, XrtError, call, document, unsupported, wrap

__all__ = ["Network", "NetworkView", "Value", "Operation", "XrtError"]

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

    def __repr__(self):
        return f"xir.Value(v_id={self.v_id}, storageBytes={self.storageBytes()})"


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

    def __repr__(self):
        return f"xir.Operation(op_id={self.op_id}, {self.typeKey()})"


class NetworkView:
    """Ops [start, end) of a network (Network.view)."""

    def network(self):
        return wrap(Network, self._obj.get_network())

    def start(self):
        return self._obj.get_start()

    def size(self):
        return self._obj.get_n_ops()

    def ops(self):
        return [wrap(Operation, self._obj.get_op(i)) for i in range(self._obj.get_n_ops())]

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
        call(self._obj.load_params_from_file_full, str(path), flags)
        return self

    def fakeParams(self, seed=330):
        """Deterministic synthetic params (not a vendor call: for networks without a .raw)."""
        self._obj.fake_params(seed)
        return self

    def name(self):
        return self._obj.get_name()

    def view(self, start=0, end=None):
        return wrap(NetworkView, call(self._obj.view, start, _G_MAXINT if end is None else end))

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
