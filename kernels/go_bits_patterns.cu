// Go playouts with the CPU's `Patterns` policy (src/sim/go_rollout.rs) on
// go_bits.cu's bitboard, one playout per thread.
//
// Per move, as the CPU does it: when the last move was a play, with
// probability 0.9 look for atari moves around it (`gbp_atari_moves`: the
// CPU's `atari_moves` candidates with their multiplicities, one drawn);
// failing that, with probability 0.95 draw among the empty points around
// the last move that match the 3x3 MoGo table, are not the mover's eye and
// not the ko point, rejecting (and dropping) a draw that is suicide or
// self-atari; failing that, draw among the empty points that are not the
// mover's eye, not ko and not a certain suicide, dropping suicides and,
// with probability 0.9, self-ataris. Both draws are without replacement,
// as the CPU's: the first acceptable point of a uniform random order.
// Points every test would reject anyway (certain suicides, the ko point)
// are left out of the draw, which changes nothing in the distribution.
//
// The RNG calls differ from the CPU's (the candidates come in another
// order), so the check is statistical (`check-gpu`), not bit-exact. One
// known difference: the CPU keeps at most 16 atari candidates and drops
// the rest in its chain-walk order; here all count. It takes an own chain
// in atari touching many opponent stones in atari to get there.
//
// The warp keeps go_bits.cu's structure, one try per lane per step (see
// there and docs/gpu-kernels.md): a step starts a move (atari pick, pattern set, the
// first draw) or makes one more draw after a rejection.
//
// Needs common.cuh, go_weights.cu (the pattern table), go.cu (GoLeaf) and
// go_bits.cu before it.

#define GBP_PROB_ATARI_MOVE 0.9f
#define GBP_PROB_PATTERN_MOVE 0.95f
#define GBP_PROB_REJECT_SELF_ATARI 0.9f

// The pattern table, `go_pattern_table`, is defined in go_weights.cu
// (first in the translation unit), which the weighted policies share.

// Grows the chain `s` of `color` until it has two liberties in `empty`
// (returns 2; `s` may be part of the chain) or stops growing (returns its
// liberty count, 0 or 1; `s` is the whole chain). GaBoard::liberties_upto2
// (go_bits_atari.cu) answers the same question its own way, measured for
// its kernel; here that form was slower (H200, devbench 256 x 2048, the same
// playouts): two growth steps between tests 5.39 M against 5.83 M on 13x13
// and 0.64 M against 0.80 M on 19x19; one step with its two_or_more 26.4 /
// 5.79 / 0.79 M against 27.0 / 5.83 / 0.80 M on 9x9 / 13x13 / 19x19.
template <int N>
__device__ __forceinline__ int gbp_grow_libs(Bits<GoGeo<N>::W>& s, const Bits<GoGeo<N>::W>& color,
                                             const Bits<GoGeo<N>::W>& empty) {
    typedef Bits<GoGeo<N>::W> B;
    for (;;) {
        const B d = nbrs<N>(s);
        const int libs = popc(d & empty);
        if (libs >= 2) return 2;
        const B g = (d & color) | s;
        if (same(g, s)) return libs;
        s = g;
    }
}

// The mover's stone on the empty, non-ko point `at`, by the CPU board's
// definitions (board.rs `is_legal`, liberties.rs `is_self_atari`): 0
// suicide; 1 self-atari (captures nothing and its chain has one liberty);
// 2 anything else. A capture always gains a liberty, so it is never
// self-atari, not even a snapback.
template <int N>
__device__ __forceinline__ int gbp_move_kind(const GbBoard<N>& b, const Bits<GoGeo<N>::W>& at) {
    typedef Bits<GoGeo<N>::W> B;
    const B mine = b.own | at;
    const B empty = andnot(go_masks<N>().all, mine | b.opp);
    const B nb = nbrs<N>(at);
    if (popc(nb & empty) >= 2) return 2;
    // As try_play: only opponent stones without an empty neighbour can
    // be captured; a chain of theirs without a liberty is.
    B danger = andnot(nb & b.opp, nbrs<N>(empty));
    while (any(danger)) {
        B s = lowest_set(danger);
        if (!GbBoard<N>::grow(s, b.opp, empty)) return 2;
        danger = andnot(danger, s);
    }
    B s = at;
    return gbp_grow_libs<N>(s, mine, empty);
}

// Weighted reservoir draw over a stream of (point, multiplicity): after
// every add, `chosen` is each point seen so far with probability weight /
// total, the CPU's uniform pick among candidates pushed with duplicates.
// (The host check passes a recorder of the weights instead.)
struct GbpPick {
    int chosen;
    u32 total;
    __device__ __forceinline__ void add(int p, u32 weight, Rng& rng) {
        total += weight;
        if (rng.below(total) < weight) chosen = p;
    }
};

// The CPU's `atari_moves` around the stone `last` (a bit index) for the
// mover, each candidate handed to `pick` with its multiplicity. Chains at or next to `last` in atari: an opponent's gives its
// liberty (unless ko); an own one gives the liberty of every opponent
// chain in atari next to it once per (own stone, opponent stone)
// adjacency, as the CPU's walk over the chain's stones pushes it, and its
// own liberty once if extending there is legal and not self-atari.
template <int N, class Pick>
__device__ __forceinline__ void gbp_atari_moves(const GbBoard<N>& b, int last, Pick& pick, Rng& rng) {
    typedef Bits<GoGeo<N>::W> B;
    const int S = GoGeo<N>::S;
    const B empty = b.empty();
    const B at_last = onehot<GoGeo<N>::W>(last);
    B pending = (at_last | nbrs<N>(at_last)) & (b.own | b.opp);
    while (any(pending)) {
        B chain = lowest_set(pending);
        const bool mine = any(chain & b.own);
        // A copy, word by word: a reference to one of the two sets would
        // put both in local memory.
        B color;
#pragma unroll
        for (int i = 0; i < GoGeo<N>::W; ++i) color.w[i] = mine ? b.own.w[i] : b.opp.w[i];
        const int libs = gbp_grow_libs<N>(chain, color, empty);
        // Whole when in atari, so every chain in atari is seen once (the
        // CPU's heads list); a chain with two liberties may be grown
        // again from another stone, and is skipped again.
        pending = andnot(pending, chain);
        if (libs != 1) continue;
        const B lib = nbrs<N>(chain) & empty;
        const int l = select_bit(lib, 0);
        if (!mine) {
            if (l != b.ko) pick.add(l, 1, rng);
            continue;
        }
        B foes = nbrs<N>(chain) & b.opp;
        while (any(foes)) {
            B e = lowest_set(foes);
            const int elibs = gbp_grow_libs<N>(e, b.opp, empty);
            foes = andnot(foes, e);
            if (elibs != 1) continue;
            const int m = select_bit(nbrs<N>(e) & empty, 0);
            if (m == b.ko) continue;
            // Adjacent (own, opponent) stone pairs, one direction at a
            // time; the sentinel column keeps row ends apart.
            const u32 pairs = popc(shl(chain, 1) & e) + popc(shr(chain, 1) & e) + popc(shl(chain, S) & e) +
                              popc(shr(chain, S) & e);
            pick.add(m, pairs, rng);
        }
        if (l != b.ko && gbp_move_kind<N>(b, lib) == 2) pick.add(l, 1, rng);
    }
}

// Bits pos .. pos + 4 of `a` (0 beyond its words; pos may be negative).
// Each word is shifted to where it lands and or-ed in: picking the word by
// index instead (a select per word) is turned by the compiler into an
// indexed load, which puts the whole board in local memory.
template <int W>
__device__ __forceinline__ u32 gbp_field5(const Bits<W>& a, int pos) {
    u32 r = 0;
#pragma unroll
    for (int k = 0; k < W; ++k) {
        const int sh = 32 * k - pos;  // where bit 0 of word k lands
        const u32 up = sh >= 0 && sh < 32 ? a.w[k] << (sh & 31) : 0u;
        const u32 down = sh < 0 && sh > -32 ? a.w[k] >> (-sh & 31) : 0u;
        r |= up | down;
    }
    return r & 31u;
}

// Five bits spread to the even bits of ten.
__device__ __forceinline__ u32 gbp_spread5(u32 x) {
    u32 r = 0;
#pragma unroll
    for (int j = 0; j < 5; ++j) r |= ((x >> j) & 1u) << (2 * j);
    return r;
}

// Whether a neighbourhood code is the centre's one-point eye for the side
// whose stones are 1 (board.rs `is_eye`): the four orthogonal cells own or
// off the board, and opponent diagonals plus one for any diagonal off the
// board fewer than two.
__device__ __forceinline__ bool gbp_code_is_eye(u32 code) {
    // Orthogonal slots 1, 3, 4, 6 hold 1 or 3: their low bits are set.
    const u32 orth = (1u << 2) | (1u << 6) | (1u << 8) | (1u << 12);
    if ((code & orth) != orth) return false;
    int bad = 0;
    bool edge = false;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int slot = k == 0 ? 0 : (k == 1 ? 2 : (k == 2 ? 5 : 7));
        const u32 v = (code >> (2 * slot)) & 3u;
        bad += v == 2;
        edge = edge || v == 3;
    }
    return bad + (int)edge < 2;
}

// Neighbour j (0..8) of a point, the centre skipped, row by row.
__device__ __forceinline__ int gbp_dr(int j) { return (j < 4 ? j : j + 1) / 3 - 1; }
__device__ __forceinline__ int gbp_dc(int j) { return (j < 4 ? j : j + 1) % 3 - 1; }

// The CPU's `pattern_moves` around `last` (a bit index), less legality
// (the draw rejects suicides) but without the ko point: bit j set for
// neighbour j (gbp_dr, gbp_dc) when it is empty, matches the table and is
// not the mover's eye. The 5x5 window around `last` holds the 3x3
// neighbourhoods of all eight: per row, two bits per cell (own 1,
// opponent 2, off the board 3), cells in column order, and the code of a
// point packs its neighbours as patterns.rs does: the row above
// (+S; columns -1, 0, +1), left, right, the row below.
template <int N>
__device__ __forceinline__ u32 gbp_pattern_moves(const GbBoard<N>& b, int last) {
    const int S = GoGeo<N>::S;
    const int r = last / S, c = last % S;
    // Columns c - 2 .. c + 2 that are on the board.
    const int lo = c >= 2 ? 0 : 2 - c, hi = c + 2 < N ? 4 : N + 1 - c;
    const u32 cols = ((2u << hi) - 1u) & ~((1u << lo) - 1u);
    u32 v[5];
#pragma unroll
    for (int k = 0; k < 5; ++k) {
        const int row = r + k - 2;
        const u32 edge = row >= 0 && row < N ? (~cols & 31u) : 31u;
        const int pos = last + (k - 2) * S - 2;
        v[k] = gbp_spread5(gbp_field5(b.own, pos) | edge) | gbp_spread5(gbp_field5(b.opp, pos) | edge) << 1;
    }
    u32 found = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int dr = (j < 4 ? j : j + 1) / 3 - 1, dc = (j < 4 ? j : j + 1) % 3 - 1;
        const u32 centre = (v[2 + dr] >> (2 * (2 + dc))) & 3u;
        const u32 code = ((v[2 + dr + 1] >> (2 * (1 + dc))) & 63u) | ((v[2 + dr] >> (2 * (1 + dc))) & 3u) << 6 |
                         ((v[2 + dr] >> (2 * (3 + dc))) & 3u) << 8 | ((v[2 + dr - 1] >> (2 * (1 + dc))) & 63u) << 10;
        const bool match = (__ldg(&go_pattern_table[code >> 6]) >> (code & 63)) & 1;
        if (centre == 0 && match && !gbp_code_is_eye(code) && last + dr * S + dc != b.ko) found |= 1u << j;
    }
    return found;
}

// gb_leaf_playouts (go_bits.cu: the same leaf loading, statistics and warp
// structure) written out with the Patterns policy's move choice. Through
// gb_leaf_playouts, as a policy whose step returns GB_AGAIN after a
// rejection, it played the same playouts (devbench digests unchanged) but
// slower (H200, 256 x 2048: 19x19 0.70 M against 0.79 M playouts/s, 13x13
// 5.39-5.40 M against 5.81-5.82 M, 9x9 25.7-25.8 M against 26.8-27.0 M;
// this kernel's 19x19 code already overflows the instruction cache), so
// it keeps its own loop.
template <int N>
__device__ void go_bits_pattern_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                         u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    enum { NEW_MOVE, PATTERN, RANDOM };
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * G::P];
    const u32 leaf = blockIdx.y;
    // The shared first-play sets are laid out for GB_BLOCK threads; smaller
    // blocks of whole warps (few playouts a leaf) use the first rows.
    if (blockDim.x > GB_BLOCK || (blockDim.x & 31)) __trap();
    clear_shared(tables, &head, G::P);
    __shared__ u32 start[2][G::W];
    __shared__ u32 first[2 * G::W * GB_BLOCK];  // [colour][word][thread]
    const GoLeaf info = leaves[leaf];
    gb_load_leaf<N>(boards + (u64)leaf * G::P, start);
    const int start_ko = info.ko >= 0 ? G::bit_of(info.ko) : -1;
    const int start_last = info.last >= 0 && info.last < G::P ? G::bit_of(info.last) : -1;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 k0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); k0 < playouts_per_leaf; k0 += stride) {
        const u32 k = k0 + (threadIdx.x & 31);
        const bool active = k < playouts_per_leaf;
        GbBoard<N> b;
        gb_start<N>(b, info, start, first, start_ko);
        Rng rng(playout_seed(seed, leaf, k));
        int passes = info.passes;
        int last = start_last;  // bit of the last move, -1 after a pass
        bool done = !active || passes >= 2;
        int moves = 0, n = 0, phase = NEW_MOVE;
        u32 pat = 0;  // pattern candidates (PATTERN), as gbp_pattern_moves
        B cand;       // random candidates (RANDOM), n of them
        while (__any_sync(0xFFFFFFFFu, !done)) {
            if (done) continue;
            int p = -1;
            if (phase == NEW_MOVE) {
                phase = RANDOM;
                if (last >= 0) {
                    if (rng.next_f32() < GBP_PROB_ATARI_MOVE) {
                        GbpPick pick = {-1, 0};
                        gbp_atari_moves<N>(b, last, pick, rng);
                        p = pick.chosen;
                    }
                    if (p < 0 && rng.next_f32() < GBP_PROB_PATTERN_MOVE) {
                        pat = gbp_pattern_moves<N>(b, last);
                        if (pat != 0) phase = PATTERN;
                    }
                }
                if (p < 0 && phase == RANDOM) {
                    cand = gb_candidates<N>(b);
                    n = popc(cand);
                }
            }
            if (p < 0 && phase == PATTERN) {
                // The k-th candidate: clear the k lowest, take the lowest.
                int k = (int)rng.below((u32)__popc(pat));
                u32 m = pat;
#pragma unroll
                for (int i = 0; i < 7; ++i) m = i < k ? m & (m - 1) : m;
                const int j = __ffs(m) - 1;
                const int q = last + gbp_dr(j) * G::S + gbp_dc(j);
                if (gbp_move_kind<N>(b, onehot<G::W>(q)) != 2) {
                    pat &= ~(1u << j);
                    if (pat == 0) {
                        phase = RANDOM;
                        cand = gb_candidates<N>(b);
                        n = popc(cand);
                    }
                    continue;
                }
                p = q;
            } else if (p < 0 && n > 0) {
                const int q = select_bit(cand, (int)rng.below((u32)n));
                const B at = onehot<G::W>(q);
                const int kind = gbp_move_kind<N>(b, at);
                if (kind == 0 || (kind == 1 && rng.next_f32() < GBP_PROB_REJECT_SELF_ATARI)) {
                    cand = andnot(cand, at);
                    --n;
                    continue;
                }
                p = q;
            }
            if (p >= 0) {
                // Not suicide (gbp_move_kind said so), so this plays.
                b.template try_play<0>(onehot<G::W>(p));
                gb_note_first<N>(first, p, b.me);
                passes = 0;
            } else {
                passes++;
                b.ko = -1;
            }
            last = p;
            b.turn();
            phase = NEW_MOVE;
            done = ++moves >= 3 * G::P || passes >= 2;
        }
        gb_finish<N>(b, info.komi2, active, tables, &head, first);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(G::P), tables, &head, G::P);
}

#define GO_BITS_PATTERNS_ENTRY(N, MIN_BLOCKS)                                                       \
    extern "C" __global__ void __launch_bounds__(GB_BLOCK, MIN_BLOCKS)                              \
        go_bits_patterns_##N(const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, \
                             u64 seed) {                                                            \
        go_bits_pattern_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed);                \
    }

// Blocks per multiprocessor the register allocation must allow, as for
// the random kernel (to be revisited with ptxas if they spill).
GO_BITS_PATTERNS_ENTRY(9, 8)
GO_BITS_PATTERNS_ENTRY(13, 5)
GO_BITS_PATTERNS_ENTRY(19, 3)
