// CPU check of the Go bitboard kernel's board code (go_bits.cu) against
// the compact-board kernel's (go.cu), whose replays check-gpu proves equal
// to the project's rules: random sequences (mostly legal moves drawn with
// the bitboard's own try_play, some passes, some arbitrary points that may
// be illegal) replayed by both replay functions must give the same final
// boards, captures, scores and first illegal move; every point
// `sure_suicides` removes from the draw must be refused by try_play; and
// on every empty point of every position, try_play's other forms (NEAR
// 0 and 2, GROW2: the light kernel's per-size settings, GbLight,
// and their neighbours) must answer and play exactly as the replay's.
// Built and run by run.sh.
#include "go_shim.h"
#include "go_src.inc"
#include "go_sequences.h"

static long sure_total = 0, forms_total = 0;

// try_play<NEAR, GROW2> on a copy of `b` must do what `want` did.
template <int NEAR, bool GROW2, int N>
void same_play(const GbBoard<N>& b, const Bits<GoGeo<N>::W>& at, bool ok, const GbBoard<N>& want, int p) {
    GbBoard<N> c = b;
    bool r = c.template try_play<NEAR, GROW2>(at);
    if (r != ok || !same(c.own, want.own) || !same(c.opp, want.opp) || c.ko != want.ko ||
        c.captured_black != want.captured_black || c.captured_white != want.captured_white) {
        printf("N=%d: try_play<%d, %d> at %d differs from try_play<1, 0>\n", N, NEAR, GROW2, p);
        exit(1);
    }
    forms_total++;
}

template <int N>
void run(int seqs, unsigned seed) {
    const int P = N * N, M = 3 * P;
    // Every certain suicide the bitboard skips must be refused by try_play.
    // More steps along the strings mark a superset, so 16 steps cover every
    // kernel's setting (GB_SURE_STEPS and 0).
    static_assert(GB_SURE_STEPS <= 16, "check sure_suicides with more steps");
    std::vector<u16> moves = random_sequences<N>(seqs, seed, [](const GbBoard<N>& b) {
        auto ss = b.template sure_suicides<16>(b.empty());
        for (int p = 0; p < N * N; ++p) {
            auto at = onehot<GoGeo<N>::W>(GoGeo<N>::bit_of(p));
            if (!any(at & ss)) continue;
            GbBoard<N> c = b;
            sure_total++;
            if (c.try_play(at)) { printf("N=%d: sure suicide %d is legal!\n", N, p); exit(1); }
        }
        const auto empty = b.empty();
        for (int p = 0; p < N * N; ++p) {
            int bi = GoGeo<N>::bit_of(p);
            auto at = onehot<GoGeo<N>::W>(bi);
            if (!any(at & empty) || bi == b.ko) continue;
            GbBoard<N> want = b;
            bool ok = want.try_play(at);
            same_play<0, false>(b, at, ok, want, p);
            same_play<0, true>(b, at, ok, want, p);
            same_play<1, true>(b, at, ok, want, p);
            same_play<2, false>(b, at, ok, want, p);
            same_play<2, true>(b, at, ok, want, p);
        }
    });
    std::vector<u8> b1(seqs * P), b2(seqs * P);
    std::vector<i32> r1(seqs * 4), r2(seqs * 4);
    blockDim.x = 1;
    int bad = 0, errs = 0;
    for (int s = 0; s < seqs; ++s) {
        threadIdx.x = s;
        go_replay<N>(moves.data(), M, seqs, b1.data(), r1.data());
        go_bits_replay<N>(moves.data(), M, seqs, b2.data(), r2.data());
        if (r1[s*4]) errs++;
        if (memcmp(&b1[s*P], &b2[s*P], P) || memcmp(&r1[s*4], &r2[s*4], 16)) {
            if (bad < 3) printf("N=%d seq %d: old %d %d %d %d new %d %d %d %d\n", N, s, r1[s*4], r1[s*4+1], r1[s*4+2], r1[s*4+3], r2[s*4], r2[s*4+1], r2[s*4+2], r2[s*4+3]);
            bad++;
        }
    }
    if (bad) exit(1);
    long caps = 0; for (int s = 0; s < seqs; ++s) caps += r1[s*4+1] + r1[s*4+2];
    printf("sure suicides checked so far: %ld; try_play forms agreeing on %ld plays\n", sure_total, forms_total);
    printf("N=%d: %d sequences, %d differ, %d end in an illegal move, %ld stones captured\n", N, seqs, bad, errs, caps);
}
int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    run<9>(n, 1);
    run<13>(n / 4 + 1, 2);
    run<19>(n / 10 + 1, 3);
    return 0;
}
