# Sourced by the GPU machine's scripts (gpu-check.sh, amazons-gpu.sh): cudarc
# loads libcuda and libnvrtc at run time, so put a CUDA toolkit's or a PyPI
# wheel's NVRTC on the library path when the loader cannot see one.
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so'; then
    for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
        "$(python3 -c 'import nvidia.cuda_nvrtc as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null || true)"; do
        if [[ -n $dir && -d $dir ]] && ls "$dir"/libnvrtc.so* >/dev/null 2>&1; then
            export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            break
        fi
    done
fi
