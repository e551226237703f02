// Havannah playouts with a packed board: same rules, result semantics and
// ring test as havannah.cu (needs it before this file: HexLeaf, tables).
//
// One u16 per cell holds everything the playout needs:
//   0                                   empty
//   colour << 13 | parent               stone, not a root (parent < 512)
//   0x8000 | colour << 13 | mask        root of its group; mask = corners
//                                       (bits 0..5) and edges (6..11)
// (colour 1 Black, 2 White). The forest has no rank: finds compress their
// path to the root, and a new stone always hangs below an existing root.
// The empty cells are a bit set in registers (compact order), and a move
// takes the k-th set bit for k uniform below the number of empty cells:
// uniform over the empty cells like havannah.cu's empty list, though the two
// map a random number to different cells.
//
// Cells pair up into u32 words. In shared memory a thread's word i lies at
// i * blockDim.x + thread, so when every lane of a warp touches one cell of
// its own board, the 32 lanes hit 32 different banks. The block first
// builds the leaf's forest once (thread 0); each playout starts from a copy.
// The playout loop runs in step across the warp, so the block's counters
// are summed with ballots (one atomic per cell and counter per warp) rather
// than one shared atomic per lane.

#define HP_ROOT 0x8000u
#define HP_PARENT 0x1FFu
#define HP_MASK 0xFFFu

// Cell c of one board: word (c >> 1) * stride, half c & 1.
struct HexSlots {
    u16* base;
    u32 stride;
    __device__ __forceinline__ u16& at(int c) const {
        return base[(((u32)c >> 1) * stride << 1) + ((u32)c & 1u)];
    }
};

__device__ __forceinline__ u32 hp_color(u32 e) { return (e >> 13) & 3u; }

// Root of p's group (its entry in *root_entry), compressing the path.
__device__ __forceinline__ int hp_find(HexSlots b, int p, u32* root_entry) {
    int r = p;
    u32 e = b.at(r);
    while (!(e & HP_ROOT)) {
        r = (int)(e & HP_PARENT);
        e = b.at(r);
    }
    *root_entry = e;
    u32 x = b.at(p);
    while (!(x & HP_ROOT)) {
        int next = (int)(x & HP_PARENT);
        if (next == r) break;
        b.at(p) = (u16)((x & ~HP_PARENT) | (u32)r);
        p = next;
        x = b.at(p);
    }
    return r;
}

// Places colour c at empty cell p; returns what it completes, as
// HexBoard::play in havannah.cu (see its ring test): HEX_NO_WIN,
// HEX_RING_ALONE or HEX_CONNECTION.
__device__ __forceinline__ int hp_play(HexSlots b, int p, u32 c, const short* nbr,
                                        const unsigned short* masks) {
    int nb[6];
    bool f[6];
    int friends = 0;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        nb[d] = nbr[p * 6 + d];
        f[d] = nb[d] >= 0 && hp_color(b.at(nb[d])) == c;
        friends += f[d];
    }
    u32 m = masks[p];
    if (friends == 0) {
        b.at(p) = (u16)(HP_ROOT | c << 13 | m);
        return HEX_NO_WIN;
    }
    // Runs of friendly neighbours in cyclic order: each run is one group
    // (consecutive neighbours touch), so its first stone stands for it.
    // (Named registers, not arrays: a run-time index would put them in
    // local memory.)
    int r0 = 0, r1 = 0, r2 = 0;
    u32 e0 = 0, e1 = 0, e2 = 0;
    int runs = 0;
    bool win = false;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        if (f[d] && (!f[(d + 5) % 6] || (friends == 6 && d == 0))) {
            u32 e;
            int r = hp_find(b, nb[d], &e);
            if (runs == 0) {
                r0 = r;
                e0 = e;
            } else if (runs == 1) {
                win |= r == r0;  // (a)
                r1 = r;
                e1 = e;
            } else {
                win |= r == r0 || r == r1;  // (a)
                r2 = r;
                e2 = e;
            }
            ++runs;
        }
    }
    b.at(p) = (u16)(c << 13 | (u32)r0);
    // (b) a neighbour now enclosed by six friendly stones (p included).
    if (friends >= 2 && !win) {
#pragma unroll
        for (int d = 0; d < 6; ++d) {
            if (win || !(f[(d + 5) % 6] && f[(d + 1) % 6]) || nb[d] < 0) continue;
            int x = nb[d];
            bool all = true;
            for (int e = 0; e < 6 && all; ++e) {
                int y = nbr[x * 6 + e];
                all = y >= 0 && hp_color(b.at(y)) == c;
            }
            win |= all;
        }
    }
    // Union: every other run's root hangs below the first run's root.
    m |= e0 & HP_MASK;
    if (runs >= 2 && r1 != r0) {
        m |= e1 & HP_MASK;
        b.at(r1) = (u16)(c << 13 | (u32)r0);
    }
    if (runs == 3 && r2 != r0 && r2 != r1) {
        m |= e2 & HP_MASK;
        b.at(r2) = (u16)(c << 13 | (u32)r0);
    }
    b.at(r0) = (u16)(HP_ROOT | c << 13 | m);
    if (__popc(m & HEX_CORNERS) >= 2 || __popc(m & HEX_EDGES) >= 3) return HEX_CONNECTION;
    return win ? HEX_RING_ALONE : HEX_NO_WIN;
}

// Whether a stone of colour c at p would win: hp_play's tests without
// placing it (finds may compress paths, which changes no group); an
// occupied cell never wins. (HexBoard::wins_at in havannah.cu is the same
// test on the other board.)
__device__ __forceinline__ bool hp_wins_at(HexSlots b, int p, u32 c, const short* nbr,
                                           const unsigned short* masks) {
    if (b.at(p) != 0) return false;
    int nb[6];
    bool f[6];
    int friends = 0;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        nb[d] = nbr[p * 6 + d];
        f[d] = nb[d] >= 0 && hp_color(b.at(nb[d])) == c;
        friends += f[d];
    }
    if (friends == 0) return false;
    u32 m = masks[p];
    int r0 = -1, r1 = -1;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        if (f[d] && (!f[(d + 5) % 6] || (friends == 6 && d == 0))) {
            u32 e;
            int r = hp_find(b, nb[d], &e);
            if (r == r0 || r == r1) return true;  // (a)
            if (r0 < 0)
                r0 = r;
            else
                r1 = r;
            m |= e & HP_MASK;
        }
    }
    if (__popc(m & HEX_CORNERS) >= 2 || __popc(m & HEX_EDGES) >= 3) return true;
    if (friends < 2) return false;
    // (b) a neighbour that p would close in with six friendly stones.
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        if (!(f[(d + 5) % 6] && f[(d + 1) % 6]) || nb[d] < 0) continue;
        int x = nb[d];
        bool all = true;
        for (int e = 0; e < 6 && all; ++e) {
            int y = nbr[x * 6 + e];
            all = y >= 0 && (y == p || hp_color(b.at(y)) == c);
        }
        if (all) return true;
    }
    return false;
}

// The tactical policy's forced cell next to `near` (a stone, or -1): the
// first neighbour, in neighbour order, where c wins; -1 if none.
__device__ __forceinline__ int hp_win_next_to(HexSlots b, int near, u32 c, const short* nbr,
                                              const unsigned short* masks) {
    if (near < 0) return -1;
    for (int d = 0; d < 6; ++d) {
        int q = nbr[near * 6 + d];
        if (q >= 0 && hp_wins_at(b, q, c, nbr, masks)) return q;
    }
    return -1;
}

// HexBoard::bridge_reply (havannah.cu) on the packed board: the empty
// cell that restores a bridge of colour c the stone at `intruder` took one
// cell of; -1 if none.
__device__ __forceinline__ int hp_bridge_reply(HexSlots b, int intruder, u32 c, const short* nbr) {
    if (intruder < 0) return -1;
    bool f[6];
    int friends = 0;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        int q = nbr[intruder * 6 + d];
        f[d] = q >= 0 && hp_color(b.at(q)) == c;
        friends += f[d];
    }
    if (friends < 2) return -1;
#pragma unroll
    for (int d = 0; d < 6; ++d) {
        int q = nbr[intruder * 6 + d];
        if (f[(d + 5) % 6] && f[(d + 1) % 6] && q >= 0 && b.at(q) == 0) return q;
    }
    return -1;
}

// Takes cell p out of the bit set em (a register array: no run-time
// index).
template <int NW>
__device__ __forceinline__ void hp_remove(u32 (&em)[NW], int p) {
#pragma unroll
    for (int i = 0; i < NW; ++i)
        if (i == (p >> 5)) em[i] &= ~(1u << (p & 31));
}

// Takes the k-th (from 0) set bit out of the bit set em; returns its index.
template <int NW>
__device__ __forceinline__ int hp_take(u32 (&em)[NW], u32 k) {
    int w = NW - 1;
    u32 word = em[NW - 1];
    bool found = false;
#pragma unroll
    for (int i = 0; i < NW; ++i) {
        u32 pc = __popc(em[i]);
        if (!found) {
            if (k < pc) {
                found = true;
                w = i;
                word = em[i];
            } else {
                k -= pc;
            }
        }
    }
    u32 pos = 0, t;
    t = __popc(word & 0xFFFFu);
    if (k >= t) { k -= t; word >>= 16; pos += 16; }
    t = __popc(word & 0xFFu);
    if (k >= t) { k -= t; word >>= 8; pos += 8; }
    t = __popc(word & 0xFu);
    if (k >= t) { k -= t; word >>= 4; pos += 4; }
    t = __popc(word & 0x3u);
    if (k >= t) { k -= t; word >>= 2; pos += 2; }
    if (k >= (word & 1u)) pos += 1;
#pragma unroll
    for (int i = 0; i < NW; ++i)
        if (i == w) em[i] &= ~(1u << pos);
    return w * 32 + (int)pos;
}

// Builds the forest of a board (colours 0/1/2 per cell) into b, every
// stone pointing straight at its root; returns the empty cells in em.
template <int S, int NW>
__device__ void hp_build(HexSlots b, const u8* colors, const short* nbr,
                         const unsigned short* masks, u32* em) {
    const int C = hex_cells(S);
    for (int i = 0; i < NW; ++i) em[i] = 0;
    for (int p = 0; p < C; ++p) {
        u32 c = colors[p];
        b.at(p) = c == HEX_EMPTY ? (u16)0 : (u16)(HP_ROOT | c << 13 | masks[p]);
        if (c == HEX_EMPTY) em[p >> 5] |= 1u << (p & 31);
    }
    for (int p = 0; p < C; ++p) {
        u32 c = colors[p];
        if (c == HEX_EMPTY) continue;
        for (int d = 0; d < 3; ++d) {
            int q = nbr[p * 6 + d];
            if (q < 0 || colors[q] != c) continue;
            u32 ea, eb;
            int ra = hp_find(b, p, &ea), rb = hp_find(b, q, &eb);
            if (ra == rb) continue;
            b.at(rb) = (u16)(c << 13 | (u32)ra);
            b.at(ra) = (u16)(ea | (eb & HP_MASK));
        }
    }
    for (int p = 0; p < C; ++p) {
        if (colors[p] == HEX_EMPTY) continue;
        u32 e;
        hp_find(b, p, &e);
    }
}

template <int S>
__host__ __device__ constexpr u32 hex_packed_bytes() {
    return (u32)((hex_cells(S) + 1) / 2 * 4);
}

// SHARED: each thread's board in dynamic shared memory, interleaved by
// thread; else in local memory (one contiguous array per thread).
// TACTICAL: the tactical policy of havannah.cu's hex_playouts (win, else
// block, the first move on the whole board, later ones next to the last
// stones; else restore an intruded bridge), with this kernel's uniform
// pick. The first move's forced win or block depends on the leaf alone,
// so thread 0 finds it once per block. blockDim.x must be a multiple of 32.
template <int S, bool SHARED, bool TACTICAL = false>
__device__ void hex_packed_playouts(const u8* __restrict__ boards,
                                    const HexLeaf* __restrict__ leaves, u32* __restrict__ stats,
                                    u32 playouts_per_leaf, u64 seed) {
    const int C = hex_cells(S);
    const int NW = (C + 31) / 32;
    const int PAIRS = (C + 1) / 2;
    extern __shared__ __align__(16) unsigned char dynamic_shared[];
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * C];
    __shared__ SharedHexTables<S> geometry;
    __shared__ u32 start_words[PAIRS];
    __shared__ u32 start_empty[NW];
    __shared__ int start_forced;
    u32 leaf = blockIdx.y;
    geometry.fill();
    clear_shared(tables, &head, C);
    const u8* start = boards + (u64)leaf * C;
    const u32 to_move = (u32)leaves[leaf].to_move;
    if (threadIdx.x == 0) {
        HexSlots sb{(u16*)start_words, 1};
        hp_build<S, NW>(sb, start, geometry.nbr, geometry.mask, start_empty);
        start_forced = -1;
        if (TACTICAL) {
            for (int p = 0; p < C && start_forced < 0; ++p)
                if (hp_wins_at(sb, p, to_move, geometry.nbr, geometry.mask)) start_forced = p;
            for (int p = 0; p < C && start_forced < 0; ++p)
                if (hp_wins_at(sb, p, to_move ^ 3u, geometry.nbr, geometry.mask)) start_forced = p;
        }
    }
    __syncthreads();
    u32 local_words[SHARED ? 1 : PAIRS];
    u32* words = SHARED ? (u32*)dynamic_shared + threadIdx.x : local_words;
    const u32 word_stride = SHARED ? blockDim.x : 1;
    HexSlots b{(u16*)words, word_stride};
    const u32 lane = threadIdx.x & 31u;
    const u32 full = 0xFFFFFFFFu;
    // base is the same for the whole warp, so all its lanes run the same
    // number of rounds and meet at the ballots.
    for (u32 base = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < playouts_per_leaf;
         base += gridDim.x * blockDim.x) {
        u32 k = base + lane;
        bool active = k < playouts_per_leaf;
        u32 winner = 0;
        if (active)
            for (int i = 0; i < PAIRS; ++i) words[i * word_stride] = start_words[i];
        u32 em[NW];
        u32 empties = 0;
#pragma unroll
        for (int i = 0; i < NW; ++i) {
            em[i] = start_empty[i];
            empties += __popc(em[i]);
        }
        Rng rng(playout_seed(seed, leaf, k));
        u32 c = to_move;
        // Tactical: each colour's last stone, by colour (last_b, last_w:
        // named, not an array indexed at run time).
        int last_b = -1, last_w = -1;
        if (to_move == HEX_BLACK)
            last_w = leaves[leaf].last;
        else
            last_b = leaves[leaf].last;
        bool first = true;
        // The warp steps one move at a time: the vote reconverges lanes
        // that diverged inside a move (finds, ring tests), which otherwise
        // stay apart (measured on the Go bitboard kernel: 4.6 of 32 lanes
        // active per instruction without it).
        bool done = !active || empties == 0;
        while (__any_sync(full, !done)) {
            if (done) continue;
            int p = -1;
            if (TACTICAL) {
                if (first) {
                    p = start_forced;
                } else {
                    int mine = c == HEX_BLACK ? last_b : last_w;
                    int theirs = c == HEX_BLACK ? last_w : last_b;
                    p = hp_win_next_to(b, mine, c, geometry.nbr, geometry.mask);
                    if (p < 0) p = hp_win_next_to(b, theirs, c ^ 3u, geometry.nbr, geometry.mask);
                }
                if (p < 0) p = hp_bridge_reply(b, c == HEX_BLACK ? last_w : last_b, c, geometry.nbr);
                first = false;
                if (p >= 0) hp_remove<NW>(em, p);
            }
            if (p < 0) p = hp_take<NW>(em, rng.below(empties));
            --empties;
            if (TACTICAL) {
                if (c == HEX_BLACK)
                    last_b = p;
                else
                    last_w = p;
            }
            int won = hp_play(b, p, c, geometry.nbr, geometry.mask);
            if (won != HEX_NO_WIN) {
                // The tactical playouts score a ring alone as a draw.
                winner = TACTICAL && won == HEX_RING_ALONE ? 0u : c;
                done = true;
            } else {
                c ^= 3u;
                done = empties == 0;
            }
        }
        u32 black_won = __ballot_sync(full, active && winner == HEX_BLACK);
        u32 white_won = __ballot_sync(full, active && winner == HEX_WHITE);
        u32 drawn = __ballot_sync(full, active && winner == 0);
        // Lane i gathers cell c0 + i's ballots, then adds them.
        for (int c0 = 0; c0 < C; c0 += 32) {
            u32 mine_b = 0, mine_w = 0;
#pragma unroll
            for (int i = 0; i < 32; ++i) {
                if (c0 + i >= C) break;
                u32 col = active ? hp_color(b.at(c0 + i)) : 0u;
                u32 vb = __ballot_sync(full, col == HEX_BLACK);
                u32 vw = __ballot_sync(full, col == HEX_WHITE);
                if (lane == (u32)i) {
                    mine_b = vb;
                    mine_w = vw;
                }
            }
            int p = c0 + (int)lane;
            if (p < C) {
                i32 own = __popc(mine_b) - __popc(mine_w);
                if (own != 0) atomicAdd((i32*)&tables[4 * C + p], own);
                // A cell empty at the start and taken at the end was first
                // played by its final owner (see havannah.cu).
                if (start[p] == HEX_EMPTY) {
                    if (mine_b) {
                        atomicAdd(&tables[2 * p], (u32)__popc(mine_b));
                        u32 w = 2 * __popc(mine_b & black_won) + __popc(mine_b & drawn);
                        if (w) atomicAdd(&tables[2 * C + 2 * p], w);
                    }
                    if (mine_w) {
                        atomicAdd(&tables[2 * p + 1], (u32)__popc(mine_w));
                        u32 w = 2 * __popc(mine_w & black_won) + __popc(mine_w & drawn);
                        if (w) atomicAdd(&tables[2 * C + 2 * p + 1], w);
                    }
                }
            }
        }
        if (lane == 0) {
            i32 bw = __popc(black_won), ww = __popc(white_won);
            atomicAdd(&head.score2, (u64)(i64)(2 * (bw - ww)));
            atomicAdd(&head.playouts, (u32)(bw + ww + __popc(drawn)));
            atomicAdd(&head.wins2, (u32)(2 * bw + __popc(drawn)));
        }
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(C), tables, &head, C);
}

// Replay with the packed board (interface as hex_replay in havannah.cu).
template <int S>
__device__ void hex_packed_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                                  i32 first_color, u8* __restrict__ boards_out,
                                  i32* __restrict__ result) {
    const int C = hex_cells(S);
    const int PAIRS = (C + 1) / 2;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    u32 words[PAIRS];
    for (int w = 0; w < PAIRS; ++w) words[w] = 0;
    HexSlots b{(u16*)words, 1};
    const short* nbr = HexTables<S>::nbr();
    const unsigned short* masks = HexTables<S>::mask();
    u32 c = (u32)first_color;
    int error = 0, winner = 0;
    u32 t = 0;
    for (; t < max_moves; ++t) {
        u32 m = moves[(u64)i * max_moves + t];
        if (m == 0xFFFF) break;
        if (m == (u32)C && t == 1 && winner == 0) {
            // Swap: the lone stone changes colour (it is its own root).
            for (int p = 0; p < C; ++p)
                if (b.at(p) != 0) b.at(p) ^= (u16)(3u << 13);
            c ^= 3u;
            continue;
        }
        if (m >= (u32)C || b.at((int)m) != 0 || winner != 0) {
            error = 1 + t;
            break;
        }
        if (hp_play(b, (int)m, c, nbr, masks)) winner = (int)c;
        c ^= 3u;
    }
    for (int p = 0; p < C; ++p) boards_out[(u64)i * C + p] = (u8)hp_color(b.at(p));
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = winner;
    result[i * 4 + 2] = t;
    result[i * 4 + 3] = 0;
}

#define HEX_PACKED_ENTRY(S)                                                                       \
    extern "C" __global__ void hex_packed_##S(const u8* boards, const HexLeaf* leaves, u32* stats,  \
                                              u32 playouts_per_leaf, u64 seed) {                  \
        hex_packed_playouts<S, true>(boards, leaves, stats, playouts_per_leaf, seed);             \
    }                                                                                             \
    extern "C" __global__ void hex_packedlocal_##S(const u8* boards, const HexLeaf* leaves,       \
                                                   u32* stats, u32 playouts_per_leaf, u64 seed) { \
        hex_packed_playouts<S, false>(boards, leaves, stats, playouts_per_leaf, seed);            \
    }                                                                                             \
    extern "C" __global__ void hex_packedtactical_##S(const u8* boards, const HexLeaf* leaves,    \
                                                      u32* stats, u32 playouts_per_leaf,          \
                                                      u64 seed) {                                 \
        hex_packed_playouts<S, true, true>(boards, leaves, stats, playouts_per_leaf, seed);       \
    }                                                                                             \
    extern "C" __global__ void hex_packedlocaltactical_##S(const u8* boards,                      \
                                                           const HexLeaf* leaves, u32* stats,     \
                                                           u32 playouts_per_leaf, u64 seed) {     \
        hex_packed_playouts<S, false, true>(boards, leaves, stats, playouts_per_leaf, seed);      \
    }                                                                                             \
    extern "C" __constant__ u32 hex_packed_bytes_##S = hex_packed_bytes<S>();                     \
    extern "C" __global__ void hex_packed_replay_##S(const u16* moves, u32 max_moves,             \
                                                     u32 sequences, i32 first_color,              \
                                                     u8* boards_out, i32* result) {               \
        hex_packed_replay<S>(moves, max_moves, sequences, first_color, boards_out, result);       \
    }

HEX_PACKED_ENTRY(4)
HEX_PACKED_ENTRY(6)
HEX_PACKED_ENTRY(8)
HEX_PACKED_ENTRY(10)
