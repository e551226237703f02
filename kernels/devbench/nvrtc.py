#!/usr/bin/env python3
"""nvrtc.py SOURCE OUT.ptx [NVRTC options]: compiles SOURCE with NVRTC
through ctypes, as the engine does (compute_90, C++17, -default-device),
with line info for profiles. Finds libnvrtc on the loader's path, in the
CUDA toolkit, or in a PyPI wheel (nvidia-cuda-nvrtc-cu12)."""
import ctypes
import glob
import sys


def load():
    names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    names += sorted(glob.glob("/usr/local/cuda/lib64/libnvrtc.so*"))
    try:
        import nvidia.cuda_nvrtc as m
        names += sorted(glob.glob(list(m.__path__)[0] + "/lib/libnvrtc.so*"))
    except ImportError:
        pass
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    sys.exit("nvrtc.py: no libnvrtc found")


def main():
    lib = load()
    src = open(sys.argv[1], "rb").read()
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"go.cu", 0, None, None) == 0
    opts = [b"--gpu-architecture=compute_90", b"--std=c++17", b"-default-device", b"-lineinfo"]
    opts += [a.encode() for a in sys.argv[3:]]
    rc = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(prog, log)
    if log.value.strip():
        sys.stderr.write(log.value.decode())
    if rc != 0:
        sys.exit(1)
    lib.nvrtcGetPTXSize(prog, ctypes.byref(n))
    ptx = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetPTX(prog, ptx)
    open(sys.argv[2], "wb").write(ptx.value)


if __name__ == "__main__":
    main()
