#!/usr/bin/env python3
"""Writes the malformed-network corpus next to this script (committed; rerun to refresh).

Each case is a small mutation of base.json, a valid three-op network in the
vendor's format. expected.tsv lists, per file, substrings the loader's error
message must contain: the file name is always checked by the test, plus the
op id / value id and the field named here.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))

def value(v_id, shape, layout, mtype, dtype=None):
    return {"_type_key": "icraft::xir::Value",
            "dtype": {"_type_key": "icraft::xir::TensorType",
                      "element_dtype": dtype or {"_type_key": "icraft::xir::QuantizedType", "expressed_dtype": "@fp(32)",
                                                 "scale": "@scales([axis=-1]32*0.05)", "storage_dtype": "@sint(8)", "zero_points": []},
                      "layout": layout, "merged_distrs": [], "shape": shape},
            "mtype": mtype, "name": "", "tags": {}, "v_id": v_id}

def params(v_id, shape, layout, mtype, dtype, name=""):
    v = value(v_id, shape, layout, mtype, dtype)
    v["_type_key"] = "icraft::xir::Params"
    v["_allow_no_data"] = False
    v["name"] = name
    return v

inp = value(0, [1, 1, 8, 8, 32], "@layout(NCHWc32)", "@chunk(0@0)")
mid = value(5, [1, 1, 8, 8, 32], "@layout(NCHWc32)", "@chunk(1@0)")
base = {
    "_type_key": "icraft::xir::Network", "ai_target": "@zhuget(330)", "framework_kind": "PYTORCH",
    "framework_version": "1.9", "icraft_version": "v3.33.1", "icraft_xir_version": "3.33.1.0",
    "name": "corpus_base",
    "ops": [
        {"_type_key": "icraft::xir::Input", "compile_target": "@hostt", "inputs": [], "name": "", "op_id": 0,
         "outputs": [inp], "tags": {}},
        {"_type_key": "icraft::xir::HardOp", "compile_target": "@zhuget(330)", "device_info": {},
         "inputs": [inp],
         "instr": [params(100, [16], "@layout(*)", "@chunk(9@0)", "@uint(64)", "7_instr")],
         "layer_count": 1, "name": "icraft::xir::Conv2dNode", "op_id": 7, "origin_ops_id": [3],
         "outputs": [mid],
         "params": [params(101, [1, 1, 1, 1, 32, 32], "@layout(OIHWo32i32)", "@chunk(8@0)",
                           {"_type_key": "icraft::xir::QuantizedType", "expressed_dtype": "@fp(32)",
                            "scale": "@scales([axis=4]32*0.001)", "storage_dtype": "@sint(8)", "zero_points": []}),
                    params(102, [1, 32], "@layout(Oo32)", "@chunk(8@1024)", "@fp(16)")],
         "sub_hard_ops": [], "tags": {"ReadState": [0, 0]}},
        {"_type_key": "icraft::xir::Output", "compile_target": "@hostt", "inputs": [mid], "name": "", "op_id": 9,
         "outputs": [], "tags": {}},
    ],
    "params_bytes": 16 + 3 * 12 + 128 + 1024 + 64, "params_md5": "", "tags": {}}

cases = []  # (file, mutate(net) or raw text, expected substrings)

def case(name, expect, fn=None, text=None):
    cases.append((name, expect, fn, text))

def op(n, i): return n["ops"][i]
def conv(n): return n["ops"][1]

case("empty.json", ["empty"], text="")
case("truncated.json", ["invalid JSON", "line 1"], text=json.dumps(base)[:400])
case("not-json.json", ["invalid JSON", "line 1"], text="ICRAFT not json")
case("top-array.json", ["top level must be an object"], text="[1, 2, 3]")
case("wrong-type-key.json", ["_type_key", "icraft::xir::Network"], lambda n: n.__setitem__("_type_key", "icraft::xir::Graph"))
case("missing-name.json", ["network", "\"name\""], lambda n: n.pop("name"))
case("missing-ops.json", ["network", "\"ops\""], lambda n: n.pop("ops"))
case("ops-not-array.json", ["\"ops\"", "array"], lambda n: n.__setitem__("ops", {"a": 1}))
case("ops-empty.json", ["\"ops\" is empty"], lambda n: n.__setitem__("ops", []))
case("op-missing-op-id.json", ["ops[1]", "\"op_id\""], lambda n: conv(n).pop("op_id"))
case("op-id-string.json", ["ops[1]", "\"op_id\"", "number"], lambda n: conv(n).__setitem__("op_id", "7"))
case("op-id-fraction.json", ["ops[1]", "\"op_id\"", "integer"], lambda n: conv(n).__setitem__("op_id", 7.5))
case("op-id-huge.json", ["ops[1]", "\"op_id\"", "2^53"], lambda n: conv(n).__setitem__("op_id", 1e300))
case("duplicate-op-id.json", ["op 0", "used twice"], lambda n: conv(n).__setitem__("op_id", 0))
case("missing-inputs.json", ["op 7", "\"inputs\""], lambda n: conv(n).pop("inputs"))
case("missing-compile-target.json", ["op 7", "\"compile_target\""], lambda n: conv(n).pop("compile_target"))
case("bad-compile-target.json", ["op 7", "compile_target", "zhuge330"], lambda n: conv(n).__setitem__("compile_target", "zhuge330"))
case("hardop-bad-name.json", ["op 7", "HardOp name", "Conv2d"], lambda n: conv(n).__setitem__("name", "Conv2d"))
case("hardop-missing-layer-count.json", ["op 7", "\"layer_count\""], lambda n: conv(n).pop("layer_count"))
case("hardop-negative-layer-count.json", ["op 7", "layer_count", "out of range"], lambda n: conv(n).__setitem__("layer_count", -1))
case("hardop-missing-instr.json", ["op 7", "\"instr\""], lambda n: conv(n).pop("instr"))
case("value-missing-v-id.json", ["op 7", "outputs[0]", "\"v_id\""], lambda n: conv(n)["outputs"][0].pop("v_id"))
case("value-missing-dtype.json", ["v_id 5", "\"dtype\""], lambda n: conv(n)["outputs"][0].pop("dtype"))
case("value-missing-mtype.json", ["v_id 5", "\"mtype\""], lambda n: conv(n)["outputs"][0].pop("mtype"))
case("unknown-dtype.json", ["v_id 101", "storage_dtype", "@sint(99)"],
     lambda n: conv(n)["params"][0]["dtype"]["element_dtype"].__setitem__("storage_dtype", "@sint(99)"))
case("unknown-dtype-string.json", ["v_id 102", "element_dtype", "@half"],
     lambda n: conv(n)["params"][1]["dtype"].__setitem__("element_dtype", "@half"))
case("unknown-element-type.json", ["v_id 5", "SparseType"],
     lambda n: conv(n)["outputs"][0]["dtype"]["element_dtype"].__setitem__("_type_key", "icraft::xir::SparseType"))
case("normalized-missing-normratio.json", ["v_id 5", "normratio"],
     lambda n: conv(n)["outputs"][0]["dtype"]["element_dtype"].__setitem__("_type_key", "icraft::xir::NormalizedQuantizedType"))
case("bad-exp-scales.json", ["v_id 5", "scale", "@exp_scales"],
     lambda n: conv(n)["outputs"][0]["dtype"]["element_dtype"].__setitem__("scale", "@exp_scales([axis=-1]32*1/2)"))
case("unknown-layout.json", ["v_id 5", "layout", "NCHWq32"], lambda n: conv(n)["outputs"][0]["dtype"].__setitem__("layout", "@layout(NCHWq32)"))
case("layout-rank-mismatch.json", ["v_id 5", "layout", "4 axes", "shape has 5"],
     lambda n: conv(n)["outputs"][0]["dtype"].__setitem__("layout", "@layout(NCHW)"))
case("layout-block-mismatch.json", ["v_id 101", "block of 32", "shape[5]"],
     lambda n: conv(n)["params"][0]["dtype"]["shape"].__setitem__(5, 16))
case("bad-scales.json", ["v_id 5", "scale", "@scales"],
     lambda n: conv(n)["outputs"][0]["dtype"]["element_dtype"].__setitem__("scale", "@scales([axis=-1]32x0.05)"))
case("bad-chunk.json", ["v_id 5", "mtype", "@chunk(1-0)"], lambda n: conv(n)["outputs"][0].__setitem__("mtype", "@chunk(1-0)"))
case("bad-chunk-negative.json", ["v_id 5", "mtype", "@chunk(-1@0)"], lambda n: conv(n)["outputs"][0].__setitem__("mtype", "@chunk(-1@0)"))
case("unknown-mtype.json", ["v_id 5", "mtype", "@ddr(5)"], lambda n: conv(n)["outputs"][0].__setitem__("mtype", "@ddr(5)"))
case("shape-negative.json", ["v_id 5", "shape[2]"], lambda n: conv(n)["outputs"][0]["dtype"]["shape"].__setitem__(2, -8))
case("shape-huge.json", ["v_id 5", "shape"], lambda n: conv(n)["outputs"][0]["dtype"]["shape"].__setitem__(2, 1e12))
case("shape-overflow.json", ["v_id 101", "elements"],
     lambda n: conv(n)["params"][0]["dtype"]["shape"][:4].__init__() or conv(n)["params"][0]["dtype"].__setitem__("shape", [65536, 65536, 64, 1, 32, 32]))
case("dangling-input.json", ["op 9", "inputs[0]", "v_id 77", "not produced"],
     lambda n: op(n, 2)["inputs"][0].__setitem__("v_id", 77))
case("input-is-params.json", ["op 9", "v_id 101", "params"],
     lambda n: op(n, 2)["inputs"][0].__setitem__("v_id", 101))
case("output-produced-twice.json", ["op 7", "v_id 0", "already"],
     lambda n: conv(n)["outputs"][0].__setitem__("v_id", 0))
case("duplicate-params-v-id.json", ["op 7", "v_id 101", "twice"],
     lambda n: conv(n)["params"][1].__setitem__("v_id", 101))
case("value-type-mismatch.json", ["op 9", "v_id 5", "differs"],
     lambda n: op(n, 2)["inputs"][0].__setitem__("mtype", "@chunk(1@64)"))
case("params-md5-not-hex.json", ["params_md5"], lambda n: n.__setitem__("params_md5", "xyz"))
case("params-bytes-negative.json", ["params_bytes", "negative"], lambda n: n.__setitem__("params_bytes", -5))
case("tags-not-object.json", ["op 7", "\"tags\""], lambda n: conv(n).__setitem__("tags", [1]))
case("value-not-object.json", ["op 7", "outputs[0]", "object"], lambda n: conv(n).__setitem__("outputs", [5]))
case("chunk-mixes-params.json", ["chunk 8", "params and feature"], lambda n: conv(n)["outputs"][0].__setitem__("mtype", "@chunk(8@0)") or op(n, 2)["inputs"][0].__setitem__("mtype", "@chunk(8@0)"))

with open(os.path.join(HERE, "base.json"), "w") as f:
    json.dump(base, f, sort_keys=True)
with open(os.path.join(HERE, "expected.tsv"), "w") as exp:
    exp.write("# file\texpected substrings of the error (tab separated); the file name is always expected too\n")
    for name, expect, fn, text in cases:
        if text is None:
            net = json.loads(json.dumps(base))  # no shared sub-objects
            fn(net)
            text = json.dumps(net, sort_keys=True)
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        exp.write(name + "\t" + "\t".join(expect) + "\n")
print(len(cases), "cases")
