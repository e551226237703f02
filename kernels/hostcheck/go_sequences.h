// Random Go move sequences for the replay checks (go_exact.cpp,
// go_rows.cpp), generated with go_bits.cu's board: mostly legal moves drawn
// uniformly with its try_play, 2% passes, 1% arbitrary points that may be
// illegal (the replays must stop there). `visit(board)` sees every position
// before a legal move is drawn. Needs go_bits.cu's GbBoard.
#pragma once
#include <random>
#include <vector>

template <int N, class Visit>
std::vector<u16> random_sequences(int seqs, unsigned seed, Visit visit) {
    const int P = N * N, M = 3 * P;
    std::mt19937 rng(seed);
    std::vector<u16> moves(seqs * M, 0xFFFF);
    for (int s = 0; s < seqs; ++s) {
        GbBoard<N> b;
        b.clear();
        for (int t = 0; t < M; ++t) {
            int r = rng() % 100;
            u16 mv;
            if (r < 2) mv = P;  // pass
            else if (r < 3) mv = rng() % P;  // anything
            else {
                visit(b);
                std::vector<int> legal;
                for (int p = 0; p < P; ++p) {
                    int bi = GoGeo<N>::bit_of(p);
                    auto at = onehot<GoGeo<N>::W>(bi);
                    if (!any(at & b.empty()) || bi == b.ko) continue;
                    GbBoard<N> c = b;
                    if (c.try_play(at)) legal.push_back(p);
                }
                mv = legal.empty() ? P : legal[rng() % legal.size()];
            }
            moves[s * M + t] = mv;
            if (mv < P) {
                int bi = GoGeo<N>::bit_of(mv);
                auto at = onehot<GoGeo<N>::W>(bi);
                if (!any(at & b.empty()) || bi == b.ko || !b.try_play(at)) break;
            } else b.ko = -1;
            b.turn();
        }
    }
    return moves;
}
