// Move weights of the `3x3` and `M2` playout policies (Iwakawa et al.'s "3x3"
// and "M2"), shared by the Go kernels that play them; the same function as
// the CPU's (src/sim/go_rollout/weights.rs, whose comment explains each
// weight). A move is drawn with probability weight / total; a drawn
// suicide is excluded and the draw repeated.
//
// Weight 0: occupied points, the simple-ko point, the mover's one-point
// eyes (go.cu `is_eye`, go_points.cu `pt_is_eye`). Otherwise, from the
// point's 3x3 neighbourhood code (eight cells, two bits each: 0 empty,
// 1 Black, 2 White, 3 off the board; cell i at bits 2i, 2i + 1, in the
// order row above (col - 1, col, col + 1), left, right, row below, as
// patterns.rs packs it) and the chains around it:
//   GW_BASE, or GW_EDGE_QUIET on the first line with no stone around;
//   + GW_PATTERN when the code matches the MoGo table;
//   + GW_CAPTURE when an adjacent opponent chain is in atari;
//   + GW_SAVE when an adjacent own chain is in atari;
//   M2 only: times GW_M2_NEAR when a stone lies in the 3x3 neighbourhood
//   or two points straight out (up, down, left, right).
// src/sim/go_rollout/tests.rs `kernel_weights_match_the_cpu_constants`
// reads these lines.
#define GW_BASE 2
#define GW_EDGE_QUIET 1
#define GW_PATTERN 6
#define GW_CAPTURE 24
#define GW_SAVE 6
#define GW_M2_NEAR 2
// Board totals stay far below 2^31 (361 points); one weight fits a byte
// (go.cu keeps them in u8).
static_assert((GW_BASE + GW_PATTERN + GW_CAPTURE + GW_SAVE) * GW_M2_NEAR < 256, "weights fit a byte");

// Which policy a kernel plays (template parameter of the Go playout
// kernels that have more than one).
#define GO_POLICY_RANDOM 0
#define GO_POLICY_3X3 1
#define GO_POLICY_M2 2

// patterns.rs's table: bit `code` is set when the 3x3 neighbourhood `code`
// matches (colour-symmetric, so raw colours serve either mover). Filled by
// the host when it loads the module (device.rs, `Gpu::new`). Global rather
// than __constant__ memory: the threads of a warp look up different words,
// which constant memory serialises; the read-only cache does not. The
// pattern kernel (go_bits_patterns.cu) uses it too.
__device__ u64 go_pattern_table[1024];

__device__ __forceinline__ bool gw_pattern(u32 code) {
    return (__ldg(&go_pattern_table[code >> 6]) >> (code & 63)) & 1;
}

// The weight of an allowed point (empty, not ko, not the mover's eye):
// `code` its neighbourhood, `capture` / `save` an adjacent opponent / own
// chain in atari, `far_stone` a stone two points straight out (M2 only).
__device__ __forceinline__ u32 gw_weight(u32 code, bool capture, bool save, bool far_stone, bool m2) {
    const u32 low = code & 0x5555u, high = (code >> 1) & 0x5555u;
    const bool stone_near = (low ^ high) != 0;  // a cell of value 1 or 2
    const bool on_edge = (low & high) != 0;     // a cell of value 3
    u32 w = on_edge && !stone_near ? GW_EDGE_QUIET : GW_BASE;
    if (gw_pattern(code)) w += GW_PATTERN;
    if (capture) w += GW_CAPTURE;
    if (save) w += GW_SAVE;
    if (m2 && (stone_near || far_stone)) w *= GW_M2_NEAR;
    return w;
}

// Neighbour slot j (0..8) of the code: row offset (+1 is the row above,
// index + N) and column offset.
__device__ __forceinline__ int gw_dr(int j) { return 1 - (j < 4 ? j : j + 1) / 3; }
__device__ __forceinline__ int gw_dc(int j) { return (j < 4 ? j : j + 1) % 3 - 1; }

// The neighbourhood code of point (r, c) of an N x N board whose colour
// at (row, col) is `at(row, col)`.
template <int N, class At>
__device__ __forceinline__ u32 gw_code(int r, int c, At at) {
    u32 code = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int rr = r + gw_dr(j), cc = c + gw_dc(j);
        const u32 v = rr < 0 || rr >= N || cc < 0 || cc >= N ? 3u : (u32)at(rr, cc);
        code |= v << (2 * j);
    }
    return code;
}

// A stone two points straight out from (r, c), on the board.
template <int N, class At>
__device__ __forceinline__ bool gw_far_stone(int r, int c, At at) {
    return (r >= 2 && at(r - 2, c) != 0) || (r + 2 < N && at(r + 2, c) != 0) || (c >= 2 && at(r, c - 2) != 0) ||
           (c + 2 < N && at(r, c + 2) != 0);
}
