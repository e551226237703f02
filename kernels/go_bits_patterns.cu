// Go playouts with the CPU's `Patterns` policy (src/sim/go_rollout.rs) on
// go_bits_atari.cu's board (GaBoard: the bitboard with the stones of the
// strings in atari kept per side), one playout per thread.
//
// Per move, as the CPU does it: when the last move was a play, with
// probability 0.9 look for atari moves around it (`gbp_atari_moves`: the
// CPU's `atari_moves` candidates with their multiplicities, one drawn; an
// own string's extension is tested after the draw, and a rejected one
// leaves the draw, which is made again);
// failing that, with probability 0.95 draw among the empty points around
// the last move that match the 3x3 MoGo table, are not the mover's eye and
// not the ko point, rejecting (and dropping) a draw that is suicide or
// self-atari; failing that, draw among the legal empty points that are not
// the mover's eye and not ko (GaBoard::candidates, exact), dropping, with
// probability 0.9, self-ataris. Both draws are without replacement, as the
// CPU's: the first acceptable point of a uniform random order. Points
// every test would reject anyway (suicides, the ko point) are left out of
// the draw, which changes nothing in the distribution.
//
// Why this board: with the strings in atari known, the atari candidates
// around the last move need no liberty count (a string at or next to it is
// in atari or not by one set test; its liberty and the opponent strings in
// atari next to it by floods of the small atari sets), legality is known
// before the draw, and the self-atari test counts liberties only when the
// move joins a string outside the atari set, on a window of the board
// around the move (GaWindow), as the light kernel's plays do. The kernel on
// go_bits.cu's plain board counted up to two liberties over the whole board
// for every string around every last move, tested certain suicides along
// strings for every draw's candidates and grew strings in every `try_play`
// (docs/gpu-kernels-19x19.md, "The pattern kernel").
//
// The RNG calls differ from the CPU's (the candidates come in another
// order), so the check is statistical (`check-gpu`, hostcheck/go_patterns),
// not bit-exact. One known difference: the CPU keeps at most 16 atari
// candidates and drops the rest in its chain-walk order; here all count.
// It takes an own chain in atari touching many opponent stones in atari to
// get there.
//
// The warp keeps go_bits.cu's structure, one try per lane per step (see
// there and docs/gpu-kernels.md): a step starts a move (atari pick, pattern
// set), draws once, or makes one more draw after a rejection.
//
// Needs common.cuh, go_weights.cu (the pattern table), go.cu (GoLeaf),
// go_bitset.cu, go_bits.cu and go_bits_atari.cu before it.

#define GBP_PROB_ATARI_MOVE 0.9f
#define GBP_PROB_PATTERN_MOVE 0.95f
#define GBP_PROB_REJECT_SELF_ATARI 0.9f

// The pattern table, `go_pattern_table`, is defined in go_weights.cu
// (first in the translation unit), which the weighted policies share.

// The mover's stone on the empty, non-ko point `q` (a bit index), by the
// CPU board's definitions (board.rs `is_legal`, liberties.rs
// `is_self_atari`): 0 suicide; 1 self-atari (captures nothing and its
// string has one liberty); 2 anything else. A capture always gains a
// liberty, so it is never self-atari, not even a snapback. Only a move
// that joins an own string outside the atari set, with at most one empty
// neighbour, counts liberties: an own neighbour in the atari set has `q`
// as its only liberty, so joining only such strings leaves the new string
// the stone's own empty neighbours. `nb`: the neighbours of `q` (the
// playout loop's play uses them too).
template <int N>
__device__ __forceinline__ int gbp_move_kind(const GaBoard<N>& b, int q, const Bits<GoGeo<N>::W>& nb,
                                             const GaScratch<N>& scr) {
    typedef Bits<GoGeo<N>::W> B;
    typedef GaWindow<N> Win;
    const B at = onehot<GoGeo<N>::W>(q);
    const B empty = b.empty();
    const B free = nb & empty;
    if (GaBoard<N>::two_or_more(free) || any(nb & b.aopp)) return 2;
    if (!any(andnot(nb & b.own, b.aown))) return any(free) ? 1 : 0;
    const B mine = b.own | at;
    const B rest = andnot(empty, at);
    const Win win(q, scr);
    const typename Win::BK at_w = win.point(q);
    const typename Win::BK mine_w = win.narrow(mine, scr.OWN);
    typename Win::BK s = (nbrs_stride<GoGeo<N>::S>(at_w) & mine_w) | at_w;
    int libs = GaBoard<N>::liberties_upto2(s, mine_w, win.narrow(rest, scr.EMPTY));
    if (libs < 2 && win.escaped(s)) {
        B f = win.widen(s);
        libs = GaBoard<N>::liberties_upto2(f, mine, rest);
    }
    return libs;
}
// The same, the neighbours found here.
template <int N>
__device__ __forceinline__ int gbp_move_kind(const GaBoard<N>& b, int q, const GaScratch<N>& scr) {
    return gbp_move_kind<N>(b, q, nbrs<N>(onehot<GoGeo<N>::W>(q)), scr);
}

// Bits pos .. pos + 31 of the set `set` in this thread's scratch (0 beyond
// its words; pos may be negative, down to -64): two shared loads at a word
// chosen at run time. Picking the word from registers instead takes a
// shift and a select per word of the board (an index into a register array
// would put the board in local memory).
template <int N>
__device__ __forceinline__ u32 gbp_bits32(const GaScratch<N>& scr, int set, int pos) {
    const int W = GoGeo<N>::W;
    const int w = ((pos + 64) >> 5) - 2;  // floor(pos / 32) without a negative shift
    const u32 lo = w >= 0 && w < W ? scr.at(set, w) : 0u;
    const u32 hi = w + 1 >= 0 && w + 1 < W ? scr.at(set, w + 1) : 0u;
    return __funnelshift_r(lo, hi, (u32)pos & 31u);
}

// Weighted reservoir draw over a stream of (point, multiplicity): after
// every add, `chosen` is each point seen so far with probability weight /
// total, the CPU's uniform pick among candidates pushed with duplicates.
// (The host check passes a recorder of the weights instead.)
// `unverified`: the chosen point is an extension the atari walk did not
// test (see gbp_atari_moves).
struct GbpPick {
    int chosen;
    u32 total;
    bool unverified;
    __device__ __forceinline__ void add(int p, u32 weight, Rng& rng, bool unchecked = false) {
        total += weight;
        if (rng.below(total) < weight) {
            chosen = p;
            unverified = unchecked;
        }
    }
};

// The CPU's `atari_moves` around the stone `last` (a bit index) for the
// mover, each candidate handed to `pick` with its multiplicity. Strings at
// or next to `last` in atari: an opponent's gives its liberty (unless ko);
// an own one gives the liberty of every opponent string in atari next to
// it once per (own stone, opponent stone) adjacency, as the CPU's walk over
// the string's stones pushes it, and its own liberty once if extending
// there is legal and not self-atari. A string in atari is the flood of one
// of its stones within its side's atari set (two strings of one colour
// never touch), so each is seen once, as the CPU's heads list does.
//
// The extensions go to `pick` untested (`unverified`): the playout loop
// tests the one drawn at its single gbp_move_kind call site and, when it is
// self-atari or suicide, puts it in the exclusion set (the scratch's OPP
// set, with `excluded` points in it; free until the move's random
// candidates) and walks again. Drawing among all and drawing again without
// a rejected point until an accepted one comes is a draw among the
// accepted ones with their multiplicities, the CPU's distribution. (A
// second copy of gbp_move_kind here was 659 of the 19x19 kernel's 8,552
// instructions.)
template <int N, class Pick>
__device__ __forceinline__ void gbp_atari_moves(const GaBoard<N>& b, int last, Pick& pick, Rng& rng,
                                                const GaScratch<N>& scr, int excluded) {
    typedef Bits<GoGeo<N>::W> B;
    const int S = GoGeo<N>::S;
    // Usually no string at or next to `last` is in atari: the five points
    // read from the thread's scratch (EMPTY, free here) as three row fields
    // cost a few instructions, the sets' neighbour shifts about 150.
#pragma unroll
    for (int i = 0; i < GoGeo<N>::W; ++i) scr.at(scr.EMPTY, i) = b.aown.w[i] | b.aopp.w[i];
    const u32 cross = (gbp_bits32<N>(scr, scr.EMPTY, last - S) & 1u) | (gbp_bits32<N>(scr, scr.EMPTY, last - 1) & 7u) |
                      (gbp_bits32<N>(scr, scr.EMPTY, last + S) & 1u);
    if (cross == 0) return;
    const B at_last = onehot<GoGeo<N>::W>(last);
    B pending = (at_last | nbrs<N>(at_last)) & (b.aown | b.aopp);
    const B empty = b.empty();
    // One loop for the strings around `last` and, after an own one, the
    // opponent strings in atari next to it (`foes`, taken first), so that
    // the flood, the neighbour set and the liberty are compiled once (the
    // kernel's pace is its instruction fetch). The candidates reach `pick`
    // in the order of a loop per kind: an own string's foes, then its
    // extension (`ext`), then the next string.
    B chain = {}, foes = {};
    int ext = -1;
    for (;;) {
        if (!any(foes)) {
            if (ext >= 0) pick.add(ext, 1, rng, true);
            ext = -1;
            if (!any(pending)) break;
        }
        const bool foe = any(foes);
        const B seed = lowest_set(GaBoard<N>::pick(foe, foes, pending));
        const bool mine = !foe && any(seed & b.aown);
        const B s = GaBoard<N>::flood(seed, GaBoard<N>::pick(mine, b.aown, b.aopp));
        if (foe)
            foes = andnot(foes, s);
        else
            pending = andnot(pending, s);
        const B around = nbrs<N>(s);
        const int l = first_bit(around & empty);
        if (mine) {
            chain = s;
            foes = around & b.aopp;
            const bool out = excluded > 0 && ((scr.at(scr.OPP, l >> 5) >> (l & 31)) & 1u);
            ext = l != b.ko && !out ? l : -1;
        } else if (l != b.ko) {
            // A foe counts once per adjacent (own, opponent) stone pair:
            // popc(shr(chain, k) & s) = popc(shl(s, k) & chain), so two
            // shifts a step, one step a direction (the sentinel column
            // keeps row ends apart).
            u32 weight = 1;
            if (foe) {
                weight = 0;
#pragma unroll 1
                for (int d = 0; d < 2; ++d) {
                    const int k = d == 0 ? 1 : S;
                    weight += popc(shl(chain, k) & s) + popc(shl(s, k) & chain);
                }
            }
            pick.add(l, weight, rng);
        }
    }
}

// The row fields of two sets, five bits each, interleaved: bit j of `a` to
// bit 2 j, of `b` to 2 j + 1 (both halves spread at once, three
// shift-and-mask steps instead of a loop over the bits).
__device__ __forceinline__ u32 gbp_interleave5(u32 a, u32 b) {
    u32 x = a | b << 16;
    x = (x | x << 4) & 0x010F010Fu;
    x = (x | x << 2) & 0x01330133u;
    x = (x | x << 1) & 0x01550155u;
    return (x & 0xFFFFu) | (x >> 15);
}

// Whether a neighbourhood code is the centre's one-point eye for the side
// whose stones are 1 (board.rs `is_eye`): the four orthogonal cells own or
// off the board, and opponent diagonals plus one for any diagonal off the
// board fewer than two. The diagonal slots 0, 2, 5, 7 tested together: an
// opponent cell (2) has its high bit alone, an edge cell (3) both.
__device__ __forceinline__ bool gbp_code_is_eye(u32 code) {
    // Orthogonal slots 1, 3, 4, 6 hold 1 or 3: their low bits are set.
    const u32 orth = (1u << 2) | (1u << 6) | (1u << 8) | (1u << 12);
    const u32 diag = 1u | (1u << 4) | (1u << 10) | (1u << 14);  // their low bits
    const u32 lo = code & diag, hi = (code >> 1) & diag;
    return (code & orth) == orth && __popc(hi & ~lo) + (int)((hi & lo) != 0) < 2;
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
// (+S; columns -1, 0, +1), left, right, the row below. The rows come from
// the board stored in the thread's scratch (OWN and OPP, free between
// plays).
template <int N>
__device__ __forceinline__ u32 gbp_pattern_moves(const GbBoard<N>& b, int last, const GaScratch<N>& scr) {
    const int S = GoGeo<N>::S;
#pragma unroll
    for (int i = 0; i < GoGeo<N>::W; ++i) {
        scr.at(scr.OWN, i) = b.own.w[i];
        scr.at(scr.OPP, i) = b.opp.w[i];
    }
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
        v[k] = gbp_interleave5((gbp_bits32<N>(scr, scr.OWN, pos) & 31u) | edge,
                               (gbp_bits32<N>(scr, scr.OPP, pos) & 31u) | edge);
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
// structure) written out with the Patterns policy's move choice, on a
// GaBoard whose leaf atari sets and scratch are go_bits_atari.cu's
// (GaPolicy). A policy step returning GB_AGAIN after a rejection through
// gb_leaf_playouts played the same playouts as this loop on the plain board
// but slower (H200, 256 x 2048: 19x19 0.70 M against 0.79 M playouts/s),
// so the loop stays written out. Each of gbp_move_kind and
// GaBoard::candidates has one call site in it: the 19x19 code outgrew the
// instruction cache before (docs/gpu-kernels-19x19.md).
template <int N>
__device__ void go_bits_pattern_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                         u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    // A lane's state between warp steps: a move to start; pattern
    // candidates to draw from; the random candidates to compute (and draw
    // from); random candidates to draw from.
    // ATARI_AGAIN: the atari walk again, its drawn extension rejected.
    enum { NEW_MOVE, ATARI_AGAIN, PATTERN, CANDIDATES, RANDOM };
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * G::P];
    const u32 leaf = blockIdx.y;
    // The shared first-play sets are laid out for GB_BLOCK threads; smaller
    // blocks of whole warps (few playouts a leaf) use the first rows.
    if (blockDim.x > GB_BLOCK || (blockDim.x & 31)) __trap();
    clear_shared(tables, &head, G::P);
    __shared__ u32 start[2][G::W];
    __shared__ u32 first[2 * G::W * GB_BLOCK];  // [colour][word][thread]
    __shared__ u32 start_atari[2][G::W];
    __shared__ u32 scratch[GaScratch<N>::SETS * G::W * GB_BLOCK];
    GaPolicy<N> leaf_atari = {start_atari, {scratch + threadIdx.x}};
    const GaScratch<N> scr = leaf_atari.scr;
    // The random candidates stay in the scratch's OPP set between warp
    // steps (RANDOM): gbp_move_kind, the only user of the scratch between
    // two draws of a move, takes OWN, EMPTY and BACK. In registers they were
    // 12 more words live across the whole loop, and the 19x19 kernel
    // spilled 112 bytes (32 without them). A block has no room for a set
    // of its own: 48 KB of static shared memory at most.
    const int CAND = scr.OPP;
#pragma unroll
    for (int i = 0; i < G::W; ++i) scr.at(scr.BACK, i) = 0;
    const GoLeaf info = leaves[leaf];
    gb_load_leaf<N>(boards + (u64)leaf * G::P, start);
    leaf_atari.prepare(start);
    const int start_ko = info.ko >= 0 ? G::bit_of(info.ko) : -1;
    const int start_last = info.last >= 0 && info.last < G::P ? G::bit_of(info.last) : -1;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 k0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); k0 < playouts_per_leaf; k0 += stride) {
        const u32 k = k0 + (threadIdx.x & 31);
        const bool active = k < playouts_per_leaf;
        GaBoard<N> b;
        gb_start<N>(b, info, start, first, start_ko);
        leaf_atari.begin(b, info);
        Rng rng(playout_seed(seed, leaf, k));
        int passes = info.passes;
        int last = start_last;  // bit of the last move, -1 after a pass
        bool done = !active || passes >= 2;
        int moves = 0, n = 0, phase = NEW_MOVE;
        u32 pat = 0;  // pattern candidates (PATTERN), as gbp_pattern_moves
        int excluded = 0;  // extensions rejected this move (gbp_atari_moves)
        bool unverified = false;
        while (__any_sync(0xFFFFFFFFu, !done)) {
            if (done) continue;
            int p = -1;
            if (phase == NEW_MOVE || phase == ATARI_AGAIN) {
                const bool again = phase == ATARI_AGAIN;
                phase = CANDIDATES;
                if (last >= 0) {
                    if (again || rng.next_f32() < GBP_PROB_ATARI_MOVE) {
                        GbpPick pick = {-1, 0, false};
                        gbp_atari_moves<N>(b, last, pick, rng, scr, excluded);
                        p = pick.chosen;
                        unverified = pick.unverified;
                    }
                    if (p < 0 && rng.next_f32() < GBP_PROB_PATTERN_MOVE) {
                        pat = gbp_pattern_moves<N>(b, last, scr);
                        if (pat != 0) phase = PATTERN;
                    }
                }
            }
            if (p < 0 && phase == CANDIDATES) {
                const B c = b.candidates();
                n = popc(c);
#pragma unroll
                for (int i = 0; i < G::W; ++i) scr.at(CAND, i) = c.w[i];
                phase = RANDOM;
            }
            // The point this step tests or plays: its neighbours serve both.
            int q = p, j = 0;
            if (p < 0) {
                // One draw: a pattern candidate or a random one.
                if (phase == PATTERN) {
                    // The k-th candidate: clear the k lowest, take the lowest.
                    const int kth = (int)rng.below((u32)__popc(pat));
                    u32 m = pat;
#pragma unroll
                    for (int i = 0; i < 7; ++i) m = i < kth ? m & (m - 1) : m;
                    j = __ffs(m) - 1;
                    q = last + gbp_dr(j) * G::S + gbp_dc(j);
                } else if (n > 0) {
                    B c;
#pragma unroll
                    for (int i = 0; i < G::W; ++i) c.w[i] = scr.at(CAND, i);
                    q = select_bit(c, (int)rng.below((u32)n));
                }
            }
            if (q >= 0) {
                const B nb = nbrs<N>(onehot<G::W>(q));
                if (p < 0 || unverified) {
                    const int kind = gbp_move_kind<N>(b, q, nb, scr);
                    // Pattern draws and the atari walk's extensions drop
                    // every suicide and self-atari; random ones (never
                    // suicide) self-ataris at a rate.
                    const bool reject = phase == PATTERN || p >= 0
                                            ? kind != 2
                                            : kind == 0 || (kind == 1 && rng.next_f32() < GBP_PROB_REJECT_SELF_ATARI);
                    if (reject) {
                        if (p >= 0) {
                            // An extension: out of the walk's next draw.
                            if (excluded++ == 0) {
#pragma unroll
                                for (int i = 0; i < G::W; ++i) scr.at(scr.OPP, i) = 0;
                            }
                            scr.at(scr.OPP, q >> 5) |= 1u << (q & 31);
                            phase = ATARI_AGAIN;
                        } else if (phase == PATTERN) {
                            pat &= ~(1u << j);
                            if (pat == 0) phase = CANDIDATES;
                        } else {
                            scr.at(CAND, q >> 5) &= ~(1u << (q & 31));
                            --n;
                        }
                        continue;
                    }
                    p = q;
                }
                // Legal (a candidate, a capture, or gbp_move_kind said so).
                b.play(p, nb, scr);
                gb_note_first<N>(first, p, b.me);
                passes = 0;
            } else {
                passes++;
                b.ko = -1;
            }
            last = p;
            b.turn();
            phase = NEW_MOVE;
            excluded = 0;
            unverified = false;
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
