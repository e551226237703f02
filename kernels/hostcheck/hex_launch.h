// Block-wide emulation of the Havannah playout kernels (after block_shim.h
// and src.inc): the host tables into the kernels' constant tables, and a
// launch of one std::thread per GPU thread.
#pragma once
#include <thread>
#include <vector>
template <int S> void set_tables() {
    std::vector<short> nbr; std::vector<unsigned short> mask; geom<S>(nbr, mask);
    memcpy((void*)HexTables<S>::nbr(), nbr.data(), nbr.size() * 2);
    memcpy((void*)HexTables<S>::mask(), mask.data(), mask.size() * 2);
}
template <class F> void launch(unsigned threads, unsigned blocks, unsigned leaves, F f) {
    blockDim.x = threads; gridDim.x = blocks; gridDim.y = leaves;
    for (unsigned ly = 0; ly < leaves; ++ly) for (unsigned bx = 0; bx < blocks; ++bx) {
        blockIdx.x = bx; blockIdx.y = ly;
        block_bar = std::make_unique<std::barrier<>>(threads);
        for (unsigned w = 0; w < threads / 32; ++w) warps[w].bar = std::make_unique<std::barrier<>>(32);
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < threads; ++t) ts.emplace_back([t, &f] { threadIdx.x = t; f(); });
        for (auto& t : ts) t.join();
    }
}
