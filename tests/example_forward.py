"""The README's Python example: a forward on the simulated board with the vendor's module
names (the counterpart of example-forward.c). Run from the build folder:

    meson devenv -C build python3 ../tests/example_forward.py data/networks/tiny_ZG.json data/networks/tiny_ZG.raw
"""
import sys

import xir                      # first: an interpreter without PyGObject is told what to do
from xrt import *
from host_backend import *
from zg330backend import *

import numpy

json_file, raw_file = sys.argv[1], sys.argv[2]

# 1. the network and its params
network = xir.Network.CreateFromJsonFile(json_file)
network.loadParamsFromFile(raw_file)

# 2. the device and a session: ZG330Backend first, HostBackend for the rest
device = Device.Open("mock://zg330")
sess = Session.Create([ZG330Backend, HostBackend], network.view(0), [device, HostDevice.Default()])

# 3. options before apply, then deploy
zg = ZG330Backend(sess.backends[0])
zg.ocmOptimize(OcmOpt.BEST_SCORE)
sess.apply()

# 4. one input tensor per network input (zeros here, from numpy), forward, read the outputs
inputs = [Tensor.fromNumpy(numpy.zeros(v.shape(), numpy.uint8), v) for v in network.inputs()]
sess.enableTimeProfile(True)
outputs = sess.forward(inputs)
first = numpy.asarray(outputs[0])
print(f"{len(outputs)} outputs, {sess.totalTime():.3f} ms (OCM option chosen: {zg.ocmOpt().name}), "
      f"first output {first.shape} {first.dtype}")
