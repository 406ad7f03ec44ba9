#!/usr/bin/env python3
"""The work-groups of each GEMM program an SM of compute capability 9.0 holds at once, from the
programs in an oclblas disk-cache folder: ptxas -v on the PTX that NVIDIA's OpenCL stored as each
binary gives its registers per work-item, the bytes it spills (stored/loaded) and its shared memory;
the work-items per group come from its -D options. Limits of an SM (CUDA's occupancy rules for
sm_90): 65536 registers, allocated per warp in units of 256; 228 KiB of shared memory, 1 KiB of it
reserved per group; 2048 work-items; 32 groups.
  resident.py FOLDER   (ptxas from PATH or /usr/local/cuda/bin)"""
import math, os, re, shutil, subprocess, sys, tempfile

ptxas = shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas'
ITEMS = {  # work-items of a group, from a program's -D options
    'gemm_fast': lambda d: d['MDIMC'] * d['NDIMC'],
    'gemm_direct': lambda d: d['MDIMCD'] * d['NDIMCD'],
    'gemm_tc': lambda d: (d['BM'] // d['WM']) * (d['BN'] // d['WN']) * 32,
}
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    data = open(os.path.join(folder, name), 'rb').read()
    start = data.find(b'.version')
    kernel = next((k for k in ITEMS if b'.entry ' + k.encode() in data), None)
    if start < 0 or not kernel:
        continue
    opts = dict((k.decode(), int(v)) for k, v in re.findall(rb'-D([A-Z_0-9]+)=(-?\d+)', data))
    ptx = data[data.rfind(b'\n', 0, start) + 1:].rstrip(b'\x00')
    with tempfile.NamedTemporaryFile(suffix='.ptx') as f:
        f.write(ptx)
        f.flush()
        out = subprocess.run([ptxas, '-arch=sm_90', '-v', f.name, '-o', os.devnull],
                             capture_output=True, text=True).stderr
    for entry in re.findall(r"Compiling entry function '(\w+)'", out) or [kernel]:
        block = out.split("Compiling entry function '%s'" % entry)[-1]
        regs = int(re.search(r'Used (\d+) registers', block).group(1))
        spills = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', block)
        spills = '%s/%s' % spills.groups() if spills else '0/0'
        smem = re.search(r'(\d+) bytes smem', block)
        smem = int(smem.group(1)) if smem else 0
        if entry != kernel:
            continue
        items = ITEMS[kernel](opts)
        warps = math.ceil(items / 32)
        per_warp = math.ceil(regs * 32 / 256) * 256
        limits = [65536 // (per_warp * warps), 2048 // items, 32]
        if smem:
            limits.append((228 * 1024) // (smem + 1024))
        keys = ','.join('%s=%d' % kv for kv in sorted(opts.items()))
        print('%s items %d registers %d spills %s smem %d resident %d :: %s' %
              (kernel, items, regs, spills, smem, min(limits), keys))
