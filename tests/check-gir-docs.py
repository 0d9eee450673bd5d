#!/usr/bin/env python3
"""check-gir-docs.py GIR... — the share of functions in each generated .gir that carry a
prose <doc> (what the Python documentation, help(xrt.Session.forward), shows).

Every .gir given is measured and printed; the ones whose namespace is in DOCUMENTED must
reach the share given there. A namespace joins the list when the prose of its public
headers has been moved into their /** … */ blocks (issue 34): add one line for it.
TAP output, one test per .gir.
"""
import sys
import xml.etree.ElementTree as ET

# namespace: the least share of its functions (functions, methods, constructors) with a
# prose <doc>. One line per namespace.
DOCUMENTED = {
    "Xir": 0.90,
    "Xrt": 0.90,
    "Zw": 0.90,
    "Host": 0.90,
    "Zg330": 0.90,
    "Buyi": 0.90,
}

CORE = "{http://www.gtk.org/introspection/core/1.0}"
C_ID = "{http://www.gtk.org/introspection/c/1.0}identifier"


def measure(path):
    root = ET.parse(path).getroot()
    ns = root.find(CORE + "namespace")
    total, missing = 0, []
    for tag in ("function", "method", "constructor"):
        for f in root.iter(CORE + tag):
            total += 1
            doc = f.find(CORE + "doc")
            if doc is None or not (doc.text or "").strip():
                missing.append(f.get(C_ID) or f.get("name"))
    return ns.get("name"), total, missing


def main(paths):
    print(f"1..{len(paths)}")
    failed = 0
    for i, path in enumerate(paths, 1):
        name, total, missing = measure(path)
        share = (total - len(missing)) / total if total else 1.0
        want = DOCUMENTED.get(name)
        line = f"{name}: {total - len(missing)} of {total} functions documented ({share:.1%})"
        if want is None:
            print(f"ok {i} {line} # SKIP {name} is not in DOCUMENTED yet")
        elif share >= want:
            print(f"ok {i} {line}, at least {want:.0%}")
        else:
            failed += 1
            print(f"not ok {i} {line}, below {want:.0%}")
            print(f"# without prose: {' '.join(sorted(set(missing)))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
