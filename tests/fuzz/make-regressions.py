#!/usr/bin/env python3
"""make-regressions.py SEEDS OUT — writes the hand-made cases of the regression corpus (hostile
inputs derived from our own generator's tiny network and its run) into
OUT/<harness>/. Run once when adding a case; the files are committed. Fuzz findings are added
beside them as they are fixed (named after what they broke)."""
import json, os, sys

seeds, out = sys.argv[1], sys.argv[2]

def put(harness, name, data):
    os.makedirs(os.path.join(out, harness), exist_ok=True)
    with open(os.path.join(out, harness, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def load(path):
    with open(path) as f:
        return json.load(f)

net = load(os.path.join(seeds, 'network', 'tiny_ZG.json'))

def net_variant(name, mutate):
    n = json.loads(json.dumps(net))
    mutate(n)
    put('network', name, json.dumps(n))

def hardop(n):
    return next(o for o in n['ops'] if o['_type_key'].endswith('HardOp'))

net_variant('origin-ops-id-1e20', lambda n: hardop(n).__setitem__('origin_ops_id', [1e20]))
net_variant('layer-count-inf', lambda n: hardop(n).__setitem__('layer_count', 1e400))
net_variant('op-id-2p63', lambda n: hardop(n).__setitem__('op_id', 9223372036854775808))
net_variant('shape-2p32-cubed', lambda n: hardop(n)['outputs'][0]['dtype'].__setitem__('shape', [4294967296, 4294967296, 4294967296]))
net_variant('weight-864GB', lambda n: next(o for o in n['ops'] if o.get('params'))['params'][0]['dtype'].__setitem__('shape', [9000, 1000, 1000, 1, 32, 3]))
def quantized(n):
    for o in n['ops']:
        for v in o.get('outputs', []):
            if isinstance(v['dtype']['element_dtype'], dict):
                return v['dtype']['element_dtype']
net_variant('zero-point-huge', lambda n: quantized(n).__setitem__('zero_points', [1e300, -1e300]))
put('network', 'layer-count-1e999', json.dumps(net).replace('"layer_count": 0', '"layer_count": 1e999', 1))
net_variant('params-bytes-negative', lambda n: n.__setitem__('params_bytes', -5))
net_variant('scales-float-overflow', lambda n: quantized(n).__setitem__('scale', '@scales([axis=-1]3*1e300)'))

rep = load(next(os.path.join(seeds, 'deploy_report', f) for f in os.listdir(os.path.join(seeds, 'deploy_report'))))

def rep_variant(name, mutate):
    r = json.loads(json.dumps(rep))
    mutate(r)
    put('deploy_report', name, json.dumps(r))

def set_sync(r):
    if r['hardops']:
        r['hardops'][0]['sync_idx'] = [0, 7e117]
rep_variant('sync-idx-7e117', set_sync)
rep_variant('n-ops-2147483647', lambda r: r['network'].__setitem__('n_ops', 2147483647))
def wrap(r):
    v = next(v for v in r['values'] if not v.get('is_host') and v.get('byte_size', 0) > 0)
    v['logic_addr'] = 2**63; v['byte_size'] = 2**63
rep_variant('address-2p63-size-2p63', wrap)
def ocm_zero(r):
    r['device']['ocm_bytes'] = 0
    r['ocm']['capacity'] = 0
    for v in r['values']:
        if not v.get('is_host') and v.get('byte_size', 0) > 0:
            v['is_ocm'] = True; v['logic_addr'] = 0
            break
rep_variant('ocm-capacity-0', ocm_zero)
rep_variant('first-last-huge', lambda r: r['values'][0].__setitem__('last', 1e18))

put('profile', 'other-time-2e39',
    'op_id: 0, op_type: icraft::xir::InputNode, op_name: , total_time: 0.03, memcpy_time: 0, hard_time: 0, other_time: 2.2e39\n')
put('profile', 'total-time-nan',
    'op_id: 0, op_type: icraft::xir::InputNode, op_name: , total_time: nan, memcpy_time: 0, hard_time: 0, other_time: inf\n')
put('profile', 'summary-only',
    'Customop: ImageMake,TotalTime: 0.12852 ms, HardTime : 5.62121 ms.\n')

dump = open(os.path.join(seeds, 'dump', 'tiny-run'), 'rb').read()
head, _, rest = dump.partition(b'\n@@ ')
m = json.loads(head)
m1 = json.loads(json.dumps(m)); m1['entries'][0]['shape'] = [18446744073709556163]
put('dump', 'shape-2p64', json.dumps(m1))
m2 = json.loads(json.dumps(m)); e = m2['entries'][0]
e['shape'] = [100000, 1000, 1000, 1]; e['format'] = 'SFT'; m2['dump_format'] = 'SFT'
put('dump', 'text-1e14-elements-2-bytes', json.dumps(m2).encode() + b'\n@@ ' + e['file'].encode() + b'\n1\n')
m3 = json.loads(json.dumps(m)); m3['entries'][0]['scales'] = [1e300]
put('dump', 'scale-float-overflow', json.dumps(m3))
m4 = json.loads(json.dumps(m)); m4['entries'][0]['v_id'] = 1e20; m4['entries'][0]['op'] = -1e30
put('dump', 'v-id-1e20', json.dumps(m4))
m5 = json.loads(json.dumps(m)); m5['entries'][0]['address'] = '0xffffffffffffffffffff'
put('dump', 'address-overflow', json.dumps(m5))

put('buffers_csv', 'size-2p64', 'id,lower,upper,size\n0,0,2,18446744073709551615\n1,1,3,18446744073709551615\n')
put('buffers_csv', 'negative-lifetime', 'id,lower,upper,size\n0,5,2,10\n1,-3,3,1e30\n')
put('device_profile', 'not-json', '{"etm_bytes": 1e999')

# pipeline reports: a run of the tiny network split in two (make-seeds.sh), its paths made
# relative; one valid case, then one broken rule or number each (reader and checker)
pipe = load(os.path.join(seeds, 'pipeline_report', 'split.json'))
pipe['pipeline']['file'] = 'split.toml'
for n in pipe['networks']:
    n['json'] = 'tiny_ZG.json'

def pipe_variant(name, mutate):
    p = json.loads(json.dumps(pipe))
    mutate(p)
    put('pipeline_report', name, json.dumps(p, separators=(',', ':')))

def chunk(p, owner):
    return next(c for c in p['board_chunks'] if c['owner'] == owner)

pipe_variant('valid-split', lambda p: None)
pipe_variant('version-2', lambda p: p.__setitem__('version', 2))
put('pipeline_report', 'not-json', '{"format": "zhuge-pipeline-report", "version": 1e999')
pipe_variant('owner-nobody', lambda p: chunk(p, 'head:WEIGHT').__setitem__('owner', 'nobody:WEIGHT'))
pipe_variant('chunks-overlap', lambda p: chunk(p, 'share:f:FTMP').__setitem__('size', 8192))
pipe_variant('addr-2p64', lambda p: chunk(p, 'connect:x').__setitem__('addr', 18446744073709551615))
pipe_variant('board-bytes-off', lambda p: p['etm'].__setitem__('board_bytes', p['etm']['board_bytes'] + 4096))
pipe_variant('saved-bytes-fraction', lambda p: p['etm'].__setitem__('saved_bytes', 0.5))
pipe_variant('off-board-with-report', lambda p: p['networks'][0].__setitem__('on_board', False))
def off_board_etm(p):
    del p['networks'][1]['report']
    p['networks'][1]['on_board'] = False
pipe_variant('off-board-etm', off_board_etm)
pipe_variant('share-names-nobody', lambda p: p['shares'][0]['networks'].append('nobody'))
pipe_variant('share-unlisted', lambda p: p['shares'][0].__setitem__('networks', ['head']))
pipe_variant('connection-moved', lambda p: p['connections'][0].__setitem__('addr', p['connections'][0]['addr'] + 4096))
pipe_variant('connection-v-id-1e20', lambda p: p['connections'][0].__setitem__('input_v_id', 1e20))
pipe_variant('stage-2p32', lambda p: p['networks'][0].__setitem__('stage', 4294967296))
pipe_variant('view-three', lambda p: p['networks'][0].__setitem__('view', [0, 2, 3]))
pipe_variant('pass-ms-negative', lambda p: p['time'].__setitem__('pass_ms', -1))
put('pipeline_report', 'time-ms-1e999', json.dumps(pipe, separators=(',', ':')).replace('"time_ms":', '"time_ms":1e999,"x":', 1))
pipe_variant('profile-number', lambda p: p['networks'][0].__setitem__('profile', 3))
pipe_variant('repeated-name', lambda p: p['networks'][1].__setitem__('name', 'head'))
