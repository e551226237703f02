// Havannah playouts, one playout per thread (after Werner (2012)).
//
// Cells are compact indices 0..CELLS of a board of side S (CELLS =
// 3S^2 - 3S + 1), in the host's order (see src/sim/cuda/hex.rs). The host
// writes per size a neighbour table (six entries per cell in cyclic order,
// -1 off the board) and a mask per cell (bits 0..5: which corner; bits
// 6..11: which edge, corners belonging to no edge) into constant memory.
//
// Per thread: colours, a disjoint-set forest over the cells (parent + rank,
// union by rank; corner/edge mask at each root) and the list of empty cells
// (random pick, swap-remove). The playout stops at the first win:
//   bridge: a group touches two corners; fork: a group touches three edges;
//   ring: a cycle of stones around at least one cell (any contents). A new
//   stone at p closes a ring exactly when (a) two separate runs of friendly
//   stones among p's neighbours (in cyclic order) were already one group, or
//   (b) some neighbour x of p, not on the boundary, has all six neighbours
//   friendly after the move (the ring around x filled with own stones,
//   which (a) misses).
// A full board with no win is a draw.
//
// Two playout policies: the uniform fill (hex_random_S and the other
// flavours) and the tactical policy (hex_tactical_S; see hex_playouts).
// The leaf header carries the last move for the latter.

#define HEX_EMPTY 0
#define HEX_BLACK 1
#define HEX_WHITE 2
#define HEX_CORNERS 0x3Fu
#define HEX_EDGES 0xFC0u
// What a stone's play() completes: nothing, a ring and nothing else, or a
// bridge or fork (with a ring or not). The tactical playouts score a ring
// alone as a draw, as the CPU's (src/sim/havannah_rollout.rs `Rings`).
#define HEX_NO_WIN 0
#define HEX_RING_ALONE 1
#define HEX_CONNECTION 2

__host__ __device__ constexpr int hex_cells(int s) { return 3 * s * s - 3 * s + 1; }

#define HEX_TABLES(S)                                   \
    __constant__ short hex_nbr_##S[hex_cells(S) * 6];  \
    __constant__ unsigned short hex_mask_##S[hex_cells(S)];

HEX_TABLES(4)
HEX_TABLES(6)
HEX_TABLES(8)
HEX_TABLES(10)

// The constant tables of each size, by template parameter.
template <int S> struct HexTables;
#define HEX_TABLES_BIND(S)                                                  \
    template <> struct HexTables<S> {                                       \
        __device__ __forceinline__ static const short* nbr() { return hex_nbr_##S; } \
        __device__ __forceinline__ static const unsigned short* mask() { return hex_mask_##S; } \
    };
HEX_TABLES_BIND(4)
HEX_TABLES_BIND(6)
HEX_TABLES_BIND(8)
HEX_TABLES_BIND(10)

// Playout threads read the tables at scattered cells, which constant
// memory serialises (it is fast only when a warp reads one address), so
// each block first copies them into shared memory.
template <int S>
struct SharedHexTables {
    short nbr[hex_cells(S) * 6];
    unsigned short mask[hex_cells(S)];

    __device__ void fill() {
        const int C = hex_cells(S);
        for (int i = threadIdx.x; i < C * 6; i += blockDim.x) nbr[i] = HexTables<S>::nbr()[i];
        for (int i = threadIdx.x; i < C; i += blockDim.x) mask[i] = HexTables<S>::mask()[i];
    }
};

template <int S, bool COMPRESS>
struct HexBoard {
    static const int C = hex_cells(S);
    const short* nbr_table;          // shared or constant memory
    const unsigned short* mask_table;

    u8 color[C];
    u16 parent[C];
    u8 rank[C];
    u16 mask[C];  // valid at roots
    u16 empty[C];
    int empties;

    __device__ __forceinline__ int find(int p) {
        int r = p;
        while (parent[r] != r) r = parent[r];
        if (COMPRESS) {
            // Second pass: point every cell on the path at the root
            // (iterative: device code should not recurse).
            while (parent[p] != r) {
                int next = parent[p];
                parent[p] = r;
                p = next;
            }
        }
        return r;
    }

    __device__ __forceinline__ int unite(int a, int b) {
        if (a == b) return a;
        if (rank[a] < rank[b]) {
            int t = a;
            a = b;
            b = t;
        }
        parent[b] = a;
        mask[a] |= mask[b];
        if (rank[a] == rank[b]) rank[a]++;
        return a;
    }

    // Builds the forest from compact colours (0 empty, 1 black, 2 white).
    __device__ void load(const u8* colors, const short* nbrs, const unsigned short* masks) {
        nbr_table = nbrs;
        mask_table = masks;
        empties = 0;
        for (int p = 0; p < C; ++p) {
            color[p] = colors[p];
            parent[p] = p;
            rank[p] = 0;
            mask[p] = mask_table[p];
            if (color[p] == HEX_EMPTY) empty[empties++] = p;
        }
        for (int p = 0; p < C; ++p) {
            u8 c = color[p];
            if (c == HEX_EMPTY) continue;
            for (int d = 0; d < 3; ++d) {  // half the directions reach every pair once
                int q = nbr_table[p * 6 + d];
                if (q >= 0 && color[q] == c) unite(find(p), find(q));
            }
        }
    }

    // Places colour c at empty cell p; returns what it completes
    // (HEX_NO_WIN, HEX_RING_ALONE or HEX_CONNECTION: non-zero wins).
    __device__ int play(int p, u8 c) {
        int nb[6];
        bool f[6];
        int friends = 0;
        for (int d = 0; d < 6; ++d) {
            nb[d] = nbr_table[p * 6 + d];
            f[d] = nb[d] >= 0 && color[nb[d]] == c;
            friends += f[d];
        }
        color[p] = c;
        bool win = false;
        if (friends >= 2) {
            // (a) two separate friendly runs already in one group.
            int run_roots[3];
            int runs = 0;
            for (int d = 0; d < 6; ++d) {
                if (f[d] && !f[(d + 5) % 6]) {
                    int r = find(nb[d]);
                    for (int i = 0; i < runs; ++i) win |= run_roots[i] == r;
                    if (runs < 3) run_roots[runs++] = r;
                }
            }
            // (b) a neighbour now enclosed by six friendly stones.
            for (int d = 0; d < 6 && !win; ++d) {
                if (!(f[(d + 5) % 6] && f[(d + 1) % 6]) || nb[d] < 0) continue;
                int x = nb[d];
                bool all = true;
                for (int e = 0; e < 6; ++e) {
                    int y = nbr_table[x * 6 + e];
                    if (y < 0 || color[y] != c) {
                        all = false;
                        break;
                    }
                }
                win |= all;
            }
        }
        int r = p;
        for (int d = 0; d < 6; ++d)
            if (f[d]) r = unite(r, find(nb[d]));
        u32 m = mask[r];
        if (__popc(m & HEX_CORNERS) >= 2 || __popc(m & HEX_EDGES) >= 3) return HEX_CONNECTION;
        return win ? HEX_RING_ALONE : HEX_NO_WIN;
    }

    // Whether a stone of colour c at p would win: play()'s three tests
    // without placing it (finds may still compress paths, which changes no
    // group). An occupied cell never wins. The tactical policy asks this
    // of the empty neighbours of the last stones, as the CPU's
    // `Position::wins_at` does.
    __device__ bool wins_at(int p, u8 c) {
        if (color[p] != HEX_EMPTY) return false;
        int nb[6];
        bool f[6];
        int friends = 0;
        for (int d = 0; d < 6; ++d) {
            nb[d] = nbr_table[p * 6 + d];
            f[d] = nb[d] >= 0 && color[nb[d]] == c;
            friends += f[d];
        }
        if (friends == 0) return false;
        u32 m = mask_table[p];
        int run_roots[3];
        int runs = 0;
        for (int d = 0; d < 6; ++d) {
            if (!f[d]) continue;
            int r = find(nb[d]);
            m |= mask[r];
            if (f[(d + 5) % 6]) continue;
            // (a) two separate friendly runs already in one group.
            for (int i = 0; i < runs; ++i)
                if (run_roots[i] == r) return true;
            if (runs < 3) run_roots[runs++] = r;
        }
        if (__popc(m & HEX_CORNERS) >= 2 || __popc(m & HEX_EDGES) >= 3) return true;
        if (friends < 2) return false;
        // (b) a neighbour that p would close in with six friendly stones.
        for (int d = 0; d < 6; ++d) {
            if (!(f[(d + 5) % 6] && f[(d + 1) % 6]) || nb[d] < 0) continue;
            int x = nb[d];
            bool all = true;
            for (int e = 0; e < 6 && all; ++e) {
                int y = nbr_table[x * 6 + e];
                all = y >= 0 && (y == p || color[y] == c);
            }
            if (all) return true;
        }
        return false;
    }

    // The tactical policy's forced cell from the neighbours of `near` (a
    // stone, or -1): the first, in neighbour order, where c wins; -1 if
    // none.
    __device__ int win_next_to(int near, u8 c) {
        if (near < 0) return -1;
        for (int d = 0; d < 6; ++d) {
            int q = nbr_table[near * 6 + d];
            if (q >= 0 && wins_at(q, c)) return q;
        }
        return -1;
    }

    // The CPU's `Position::bridge_reply`: when the stone at `intruder`
    // took one of the two cells between two c stones that are not
    // neighbours of each other (a bridge), the other cell, if empty: the
    // first in neighbour order; -1 if none. Neighbours d - 1 and d + 1 of a
    // cell are the two whose common cells are it and neighbour d.
    __device__ int bridge_reply(int intruder, u8 c) {
        if (intruder < 0) return -1;
        bool f[6];
        int friends = 0;
        for (int d = 0; d < 6; ++d) {
            int q = nbr_table[intruder * 6 + d];
            f[d] = q >= 0 && color[q] == c;
            friends += f[d];
        }
        if (friends < 2) return -1;
        for (int d = 0; d < 6; ++d) {
            int q = nbr_table[intruder * 6 + d];
            if (f[(d + 5) % 6] && f[(d + 1) % 6] && q >= 0 && color[q] == HEX_EMPTY) return q;
        }
        return -1;
    }

    // The first cell, in cell order, where c wins; -1 if none.
    __device__ int winning_cell(u8 c) {
        for (int p = 0; p < C; ++p)
            if (wins_at(p, c)) return p;
        return -1;
    }
};

struct HexLeaf {
    i32 to_move;  // 1 Black, 2 White
    i32 last;     // the cell of the last move (the opponent's stone), -1: none or swap
    i32 pad[2];
};

template <int S>
__host__ __device__ constexpr u32 hex_shared_bytes() {
    return (u32)((sizeof(HexBoard<S, true>) + 15) / 16 * 16);
}

// SHARED: each thread's board in dynamic shared memory (see go.cu).
// TACTICAL: the CPU engine's playout policy (src/sim/havannah_tactics.rs
// `bridge_rollout`), move for move: the first move takes a cell where the
// mover wins, else one where the opponent wins (whole board, cell order);
// later moves test only the empty neighbours of the mover's last stone
// (its wins), then of the opponent's last stone (its threats to block);
// failing those, every move answers an intrusion of the opponent's last
// stone into one of the mover's bridges; otherwise a uniform pick. The
// empty list, its swap-removal and the random draws (one per unforced
// move) are the CPU's, so a playout equals the CPU's from the same stream;
// a playout that ends in a ring alone is a draw, as the CPU's.
template <int S, bool COMPRESS, bool SHARED, bool TACTICAL = false>
__device__ void hex_playouts(const u8* __restrict__ boards, const HexLeaf* __restrict__ leaves,
                             u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int C = hex_cells(S);
    extern __shared__ __align__(16) unsigned char dynamic_shared[];
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * C];
    __shared__ SharedHexTables<S> geometry;
    u32 leaf = blockIdx.y;
    geometry.fill();
    clear_shared(tables, &head, C);
    const u8* start = boards + (u64)leaf * C;
    // Threads loop over the leaf's playouts (see go.cu).
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < playouts_per_leaf; k += gridDim.x * blockDim.x) {
        HexBoard<S, COMPRESS> local_board;
        HexBoard<S, COMPRESS>& b = SHARED
            ? *reinterpret_cast<HexBoard<S, COMPRESS>*>(dynamic_shared + threadIdx.x * hex_shared_bytes<S>())
            : local_board;
        b.load(start, geometry.nbr, geometry.mask);
        Rng rng(playout_seed(seed, leaf, k));
        u8 c = (u8)leaves[leaf].to_move;
        int winner = 0;
        // Tactical: where each empty cell sits in the list (to remove a
        // forced cell), and each colour's last stone (last[colour - 1]).
        u16 slot[TACTICAL ? C : 1];
        int last[2] = {-1, -1};
        if (TACTICAL) {
            for (int i = 0; i < b.empties; ++i) slot[b.empty[i]] = (u16)i;
            last[(c ^ 3) - 1] = leaves[leaf].last;
        }
        bool first = true;
        while (b.empties > 0) {
            int j = -1;
            if (TACTICAL) {
                int forced;
                if (first) {
                    forced = b.winning_cell(c);
                    if (forced < 0) forced = b.winning_cell(c ^ 3);
                } else {
                    forced = b.win_next_to(last[c - 1], c);
                    if (forced < 0) forced = b.win_next_to(last[(c ^ 3) - 1], c ^ 3);
                }
                if (forced < 0) forced = b.bridge_reply(last[(c ^ 3) - 1], c);
                if (forced >= 0) j = slot[forced];
            }
            first = false;
            if (j < 0) j = (int)rng.below((u32)b.empties);
            int p = b.empty[j];
            b.empty[j] = b.empty[--b.empties];
            if (TACTICAL) {
                slot[b.empty[j]] = (u16)j;
                last[c - 1] = p;
            }
            int won = b.play(p, c);
            if (won != HEX_NO_WIN) {
                // The tactical playouts score a ring alone as a draw.
                winner = TACTICAL && won == HEX_RING_ALONE ? 0 : c;
                break;
            }
            c ^= 3;
        }
        int score2 = winner == HEX_BLACK ? 2 : (winner == HEX_WHITE ? -2 : 0);
        u32 bw = winner == HEX_BLACK ? 2 : (winner == 0 ? 1 : 0);
        // Every cell is played at most once, so a cell empty at the start
        // and taken at the end was first played by its final owner: no
        // per-playout first-play table is needed.
        for (int p = 0; p < C; ++p) {
            u32 f = b.color[p];
            if (f == HEX_EMPTY) continue;
            atomicAdd((i32*)&tables[4 * C + p], f == HEX_BLACK ? 1 : -1);
            if (start[p] == HEX_EMPTY) {
                atomicAdd(&tables[2 * p + f - 1], 1u);
                if (bw) atomicAdd(&tables[2 * C + 2 * p + f - 1], bw);
            }
        }
        atomicAdd(&head.score2, (u64)(i64)score2);
        atomicAdd(&head.playouts, 1u);
        atomicAdd(&head.wins2, bw);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(C), tables, &head, C);
}

// Replay: thread i plays moves[i * max_moves ..] (compact cells, C = swap
// as the second move, 0xFFFF = end) from the empty board, `first_color`
// first.
// Output: final colours, and result[i * 4 ..] = error (0 ok, else 1 + index
// of the first bad move: occupied or played after the game ended), winner
// (0 none, 1 Black, 2 White), moves applied, 0.
template <int S>
__device__ void hex_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                           i32 first_color, u8* __restrict__ boards_out, i32* __restrict__ result) {
    const int C = hex_cells(S);
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    HexBoard<S, true> b;
    u8 zero[C];
    for (int p = 0; p < C; ++p) zero[p] = 0;
    b.load(zero, HexTables<S>::nbr(), HexTables<S>::mask());
    u8 c = (u8)first_color;
    int error = 0, winner = 0;
    u32 t = 0;
    for (; t < max_moves; ++t) {
        u32 m = moves[(u64)i * max_moves + t];
        if (m == 0xFFFF) break;
        if (m == (u32)C && t == 1 && winner == 0) {
            // Swap (second move only): the first stone changes colour and
            // the turn passes on as after any move. A lone stone is its own
            // root, so the forest needs no change.
            for (int p = 0; p < C; ++p)
                if (b.color[p] != HEX_EMPTY) b.color[p] ^= 3;
            c ^= 3;
            continue;
        }
        if (m >= (u32)C || b.color[m] != HEX_EMPTY || winner != 0) {
            error = 1 + t;
            break;
        }
        if (b.play(m, c)) winner = c;
        c ^= 3;
    }
    for (int p = 0; p < C; ++p) boards_out[(u64)i * C + p] = b.color[p];
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = winner;
    result[i * 4 + 2] = t;
    result[i * 4 + 3] = 0;
}

#define HEX_ENTRY(S)                                                                             \
    extern "C" __global__ void hex_random_##S(const u8* boards, const HexLeaf* leaves, u32* stats, \
                                              u32 playouts_per_leaf, u64 seed) {                 \
        hex_playouts<S, true, false>(boards, leaves, stats, playouts_per_leaf, seed);            \
    }                                                                                            \
    extern "C" __global__ void hex_shared_##S(const u8* boards, const HexLeaf* leaves, u32* stats, \
                                              u32 playouts_per_leaf, u64 seed) {                 \
        hex_playouts<S, true, true>(boards, leaves, stats, playouts_per_leaf, seed);             \
    }                                                                                            \
    extern "C" __global__ void hex_tactical_##S(const u8* boards, const HexLeaf* leaves,          \
                                                u32* stats, u32 playouts_per_leaf, u64 seed) {    \
        hex_playouts<S, true, false, true>(boards, leaves, stats, playouts_per_leaf, seed);       \
    }                                                                                            \
    extern "C" __constant__ u32 hex_shared_bytes_##S = hex_shared_bytes<S>();                    \
    extern "C" __global__ void hex_plainfind_##S(const u8* boards, const HexLeaf* leaves,        \
                                                 u32* stats, u32 playouts_per_leaf, u64 seed) {  \
        hex_playouts<S, false, false>(boards, leaves, stats, playouts_per_leaf, seed);           \
    }                                                                                            \
    extern "C" __global__ void hex_replay_##S(const u16* moves, u32 max_moves, u32 sequences,    \
                                              i32 first_color, u8* boards_out, i32* result) {    \
        hex_replay<S>(moves, max_moves, sequences, first_color, boards_out, result);             \
    }

HEX_ENTRY(4)
HEX_ENTRY(6)
HEX_ENTRY(8)
HEX_ENTRY(10)
