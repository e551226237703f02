// The Amazons evaluation kernel (kernels/amazons/eval.cu) compiled as host
// C++ and run on the positions the CPU's test wrote (src/sim/cuda/
// compile_amazons.rs, write_gpu_hostcheck_data_amazons): each line is the
// kernel's six input words, the CPU's value in double and whether the
// armies are apart. Fails if any value differs by more than 1e-3 squares or
// w is 0 where the armies are not apart (or the other way round).
// Usage: amazons DATA_DIR
#include <cmath>
#include <cstdio>
#include <string>
#include "host_shim.h"
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
#include "../amazons/eval.cu"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: amazons DATA_DIR\n");
        return 2;
    }
    std::string path = std::string(argv[1]) + "/amazons.txt";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) {
        std::fprintf(stderr, "amazons: cannot open %s\n", path.c_str());
        return 2;
    }
    u64 words[6];
    double cpu;
    int separated;
    long count = 0, bad = 0;
    double worst = 0.0;
    while (std::fscanf(f, "%llx %llx %llx %llx %llx %llx %lf %d", &words[0], &words[1], &words[2],
                       &words[3], &words[4], &words[5], &cpu, &separated) == 8) {
        float value, w;
        amazons_evaluate(words, &value, &w);
        double diff = std::fabs((double)value - cpu);
        if (diff > worst) worst = diff;
        if (diff > 1e-3 || (w == 0.0f) != (separated != 0)) {
            if (bad < 5)
                std::fprintf(stderr, "position %ld: kernel %.6f w %.6f, cpu %.6f separated %d\n",
                             count, value, w, cpu, separated);
            ++bad;
        }
        ++count;
    }
    std::fclose(f);
    std::printf("amazons: %ld positions, max |kernel - cpu| %.2e, %ld disagreements\n", count,
                worst, bad);
    return count > 0 && bad == 0 ? 0 : 1;
}
