// A CPU model of one warp of go_bits_random (go_bits.cu): 32 lanes run the
// kernel's own board code and step together as the kernel's lanes do (one
// draw and one try per lane per step; candidates recomputed after each
// move), from the empty board. Per step the warp pays the candidate sets if
// any lane needs them, one try, and as many grow steps as its slowest lane
// takes. It prints what the kernel's cost follows (docs/gpu-kernels.md, "Why
// 19x19 stays near 6.4 M"): warp steps per 32 playouts and grow steps per
// warp step. A measurement, not a check. Built and run by warp_model.sh.
// It models go_bits_playouts with GbLight's growth settings and, second,
// go_bits_atari.cu's board (one draw and one play per lane per step; the
// 19x19 light kernel plays that way, GbLight<19>::atari): warp steps and
// the slowest lane's grow steps (recounts and floods) per warp step.
#include <algorithm>
static long gb_grow_steps = 0, gb_capture_tests = 0;
#define GB_COUNT_GROW() (++gb_grow_steps)
#define GA_COUNT_GROW() (++gb_grow_steps)
#define GB_COUNT_CAPTURE_TEST() (++gb_capture_tests)
#include "go_shim.h"
#include "go_src.inc"

template <int N>
void run(int warps) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    double steps = 0, fresh_steps = 0, grow_max = 0, grow_sum = 0, tests_max = 0, active = 0, moves = 0;
    for (int w = 0; w < warps; ++w) {
        struct Lane {
            GbBoard<N> b;
            Rng rng{0};
            bool done = false, fresh = true;
            int moves = 0, n = 0, passes = 0;
            B cand;
        } lane[32];
        for (int l = 0; l < 32; ++l) {
            lane[l].b.clear();
            lane[l].rng = Rng(playout_seed(7, w, l));
        }
        for (;;) {
            bool any_active = false, any_fresh = false;
            long gmax = 0, tmax = 0;
            int act = 0;
            for (Lane& x : lane) {
                if (x.done) continue;
                any_active = true;
                act++;
                if (x.fresh) {
                    any_fresh = true;
                    x.cand = gb_candidates<N, GbLight<N>::sure_steps>(x.b);
                    x.n = popc(x.cand);
                    x.fresh = false;
                }
                if (x.n > 0) {
                    gb_grow_steps = gb_capture_tests = 0;
                    int p = select_bit(x.cand, (int)x.rng.below((u32)x.n));
                    B at = onehot<G::W>(p);
                    bool ok = x.b.template try_play<GbLight<N>::near, GbLight<N>::grow2>(at);
                    gmax = std::max(gmax, gb_grow_steps);
                    tmax = std::max(tmax, gb_capture_tests);
                    grow_sum += gb_grow_steps;
                    if (!ok) {
                        x.cand = andnot(x.cand, at);
                        --x.n;
                        continue;
                    }
                    x.passes = 0;
                } else {
                    x.passes++;
                    x.b.ko = -1;
                }
                x.b.turn();
                x.fresh = true;
                moves++;
                x.done = ++x.moves >= 3 * G::P || x.passes >= 2;
            }
            if (!any_active) break;
            steps++;
            fresh_steps += any_fresh;
            grow_max += gmax;
            tests_max += tmax;
            active += act;
        }
    }
    const double playouts = 32.0 * warps;
    printf("%dx%d: %.0f moves a playout; per 32 playouts %.0f warp steps, %.0f of them with candidate sets, "
           "%.1f lanes active a step; grow steps %.2f per lane and move, %.2f per warp step (slowest lane); "
           "capture tests %.2f per warp step (slowest lane)\n",
           N, N, moves / playouts, steps / warps, fresh_steps / warps, active / steps, grow_sum / moves,
           grow_max / steps, tests_max / steps);
}

template <int N>
void run_atari(int warps) {
    typedef GoGeo<N> G;
    static u32 words[GaScratch<N>::SETS * G::W * GB_BLOCK];
    const GaScratch<N> scratch = {words};
    double steps = 0, grow_max = 0, grow_sum = 0, moves = 0;
    for (int w = 0; w < warps; ++w) {
        struct Lane {
            GaBoard<N> b;
            Rng rng{0};
            bool done = false;
            int moves = 0, passes = 0;
        } lane[32];
        for (int l = 0; l < 32; ++l) {
            lane[l].b.clear();
            lane[l].rng = Rng(playout_seed(7, w, l));
        }
        for (;;) {
            bool any_active = false;
            long gmax = 0;
            for (Lane& x : lane) {
                if (x.done) continue;
                any_active = true;
                const Bits<G::W> cand = x.b.candidates();
                const int n = popc(cand);
                gb_grow_steps = 0;
                if (n > 0) {
                    x.b.play(select_bit(cand, (int)x.rng.below((u32)n)), scratch);
                    x.passes = 0;
                } else {
                    x.passes++;
                    x.b.ko = -1;
                }
                gmax = std::max(gmax, gb_grow_steps);
                grow_sum += gb_grow_steps;
                moves++;
                x.b.turn();
                x.done = ++x.moves >= 3 * G::P || x.passes >= 2;
            }
            if (!any_active) break;
            steps++;
            grow_max += gmax;
        }
    }
    printf("%dx%d, strings in atari kept (go_bits_atari.cu): %.0f moves a playout; per 32 playouts %.0f warp steps; "
           "grow steps %.2f per lane and move, %.2f per warp step (slowest lane)\n",
           N, N, moves / (32.0 * warps), steps / warps, grow_sum / moves, grow_max / steps);
}

int main(int argc, char** argv) {
    int warps = argc > 1 ? atoi(argv[1]) : 40;
    run<9>(warps);
    run<13>(warps);
    run<19>(warps);
    run_atari<9>(warps);
    run_atari<13>(warps);
    run_atari<19>(warps);
    return 0;
}
