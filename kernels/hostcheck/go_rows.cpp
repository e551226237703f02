// CPU check of the row-per-lane Go kernel (go_rows.cu), one warp emulated
// with 32 std::threads (block_shim.h), against go_bits.cu's board, which
// go_exact.cpp checks against go.cu's: on random sequences
// (go_sequences.h), at every position the rows' candidate set (empty, not
// ko, not an own eye, not a certain suicide) equals the bitboard's row by
// row, and every move is accepted or refused alike; then
// go_rows_replay's final boards, captures, scores and first illegal move
// equal go_bits_replay's. Built and run by run.sh.
#include "block_shim.h"
#include "go_rows_src.inc"
#include "go_sequences.h"
#include <atomic>

static std::atomic<long> positions{0}, mismatches{0};

template <int N>
static u32 row_of(const Bits<GoGeo<N>::W>& s, int r) {
    u32 x = 0;
    for (int c = 0; c < N; ++c) {
        const int b = r * GoGeo<N>::S + c;
        if ((s.w[b >> 5] >> (b & 31)) & 1) x |= 1u << c;
    }
    return x;
}

// Run by every lane of one warp: steps both boards through the sequence.
template <int N>
static void step_both(const u16* moves, int M) {
    typedef GoGeo<N> G;
    const RowLane<N> L;
    RowBoard<N> rb;
    rb.own = rb.opp = rb.ko = 0;
    rb.me = 0;
    rb.captured_black = rb.captured_white = 0;
    GbBoard<N> gb;
    gb.clear();
    for (int t = 0; t < M; ++t) {
        const u16 mv = moves[t];
        if (mv == 0xFFFF) break;
        u32 two;
        const u32 cand = rb.candidates(L, two);
        const auto e = gb.empty();
        auto want = andnot(andnot(e, gb.eyes()), gb.template sure_suicides<0>(e));
        if (gb.ko >= 0) want = andnot(want, onehot<G::W>(gb.ko));
        const u32 want_row = L.lane < (u32)N ? row_of<N>(want, L.lane) : 0u;
        if (cand != want_row) mismatches++;
        if (L.lane == 0) positions++;
        bool ok_rows, ok_bits;
        if (mv < N * N) {
            const int bi = G::bit_of(mv);
            const auto at = onehot<G::W>(bi);
            const u32 r = mv / N, c = mv % N;
            const u32 here = L.lane == r ? 1u << c : 0u;
            ok_bits = any(at & e) && bi != gb.ko && gb.try_play(at);
            ok_rows = !gr_any(here & ~rb.empty(L)) && !gr_any(here & rb.ko) && rb.try_play(L, r, c, two);
        } else {
            ok_bits = ok_rows = true;
            gb.ko = -1;
            rb.ko = 0;
        }
        if (ok_rows != ok_bits) mismatches++;
        if (!ok_bits || !ok_rows) break;
        gb.turn();
        rb.turn();
        if (L.lane < (u32)N && (rb.own != row_of<N>(gb.own, L.lane) || rb.opp != row_of<N>(gb.opp, L.lane)))
            mismatches++;
    }
}

template <int N>
static void run(int seqs, unsigned seed, int threads) {
    const int P = N * N, M = 3 * P;
    std::vector<u16> moves = random_sequences<N>(seqs, seed, [](const GbBoard<N>&) {});
    std::vector<u8> b1(seqs * P), b2(seqs * P);
    std::vector<i32> r1(seqs * 4), r2(seqs * 4);
    blockDim.x = 1;
    blockIdx.x = 0;
    for (int s = 0; s < seqs; ++s) {
        threadIdx.x = s;
        go_bits_replay<N>(moves.data(), M, seqs, b1.data(), r1.data());
    }
    // Warps of one emulated block replay sequences side by side.
    const int per_block = threads / 32;
    for (int s0 = 0; s0 < seqs; s0 += per_block) {
        blockDim.x = threads;
        blockIdx.x = s0 / per_block;
        for (int w = 0; w < per_block; ++w) warps[w].bar = std::make_unique<std::barrier<>>(32);
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t)
            ts.emplace_back([&, t] {
                threadIdx.x = t;
                const int s = s0 + t / 32;
                if (s >= seqs) return;
                step_both<N>(&moves[(size_t)s * M], M);
                go_rows_replay<N>(moves.data(), M, seqs, b2.data(), r2.data());
            });
        for (auto& t : ts) t.join();
    }
    int bad = 0, errs = 0;
    for (int s = 0; s < seqs; ++s) {
        if (r1[s * 4]) errs++;
        if (memcmp(&b1[s * P], &b2[s * P], P) || memcmp(&r1[s * 4], &r2[s * 4], 16)) {
            if (bad < 3)
                printf("N=%d seq %d: bits %d %d %d %d rows %d %d %d %d\n", N, s, r1[s * 4], r1[s * 4 + 1],
                       r1[s * 4 + 2], r1[s * 4 + 3], r2[s * 4], r2[s * 4 + 1], r2[s * 4 + 2], r2[s * 4 + 3]);
            bad++;
        }
    }
    printf("rows N=%d: %d sequences (%d end in an illegal move), %d replays differ; %ld positions stepped, %ld lane mismatches\n",
           N, seqs, errs, bad, positions.load(), mismatches.load());
    if (bad || mismatches) exit(1);
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 200;
    run<9>(n, 11, 128);
    run<13>(n / 4 + 1, 12, 128);
    run<19>(n / 10 + 1, 13, 128);
    return 0;
}
