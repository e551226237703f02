// Host copy of the Havannah tables (same construction as src/sim/cuda/hex.rs).
#pragma once
#include <vector>
#include <utility>
template <int S> void geom(std::vector<short>& nbr, std::vector<unsigned short>& mask) {
    int s = S, d = 2 * s - 1;
    auto on = [&](int q, int r) { return q >= 0 && r >= 0 && q < d && r < d && abs(q - r) < s; };
    std::vector<int> index(d * d, -1); std::vector<std::pair<int,int>> co;
    for (int r = 0; r < d; ++r) for (int q = 0; q < d; ++q) if (on(q, r)) { index[r*d+q] = co.size(); co.push_back({q, r}); }
    int dirs[6][2] = {{1,0},{1,1},{0,1},{-1,0},{-1,-1},{0,-1}};
    int corners[6][2] = {{0,0},{s-1,0},{d-1,s-1},{d-1,d-1},{s-1,d-1},{0,s-1}};
    for (auto [q, r] : co) {
        for (auto& dd : dirs) { int nq = q + dd[0], nr = r + dd[1]; nbr.push_back(on(nq, nr) ? index[nr*d+nq] : -1); }
        unsigned short m = 0; int ci = -1;
        for (int k = 0; k < 6; ++k) if (corners[k][0] == q && corners[k][1] == r) ci = k;
        if (ci >= 0) m = 1 << ci; else {
            bool sides[6] = {r == 0, q - r == s - 1, q == d - 1, r == d - 1, r - q == s - 1, q == 0};
            for (int k = 0; k < 6; ++k) if (sides[k]) m |= 1 << (6 + k);
        }
        mask.push_back(m);
    }
}
