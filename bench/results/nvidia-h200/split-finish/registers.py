#!/usr/bin/env python3
"""Registers and spills of the gemm_fast programs in oclblas disk-cache folders: each file's key
(its -D options) and ptxas -v on the PTX that NVIDIA's OpenCL stored as its binary.
  registers.py LABEL=FOLDER ...   (ptxas from PATH or /usr/local/cuda/bin)"""
import os, re, shutil, subprocess, sys, tempfile

ptxas = shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas'
for arg in sys.argv[1:]:
    label, folder = arg.split('=', 1)
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), 'rb').read()
        start = data.find(b'.version')
        if start < 0 or b'.entry gemm_fast' not in data:
            continue
        key = re.search(rb'-DMWG=[^\x00\n]*', data)
        ptx = data[data.rfind(b'\n', 0, start) + 1:].rstrip(b'\x00')
        with tempfile.NamedTemporaryFile(suffix='.ptx') as f:
            f.write(ptx)
            f.flush()
            out = subprocess.run([ptxas, '-arch=sm_90', '-v', f.name, '-o', os.devnull],
                                 capture_output=True, text=True).stderr
        info = ' | '.join(l.split('info    : ')[-1].strip() for l in out.splitlines()
                          if 'registers' in l or 'spill' in l)
        print(label, key.group(0).decode(errors='replace') if key else '(no key)', '::', info)
