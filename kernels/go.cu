// Go playouts, one playout per thread, on a compact per-thread board.
//
// Layout: a padded 1-D board, stride S = N + 2, one ring of BORDER cells, so
// the four neighbours of cell p are p-1, p+1, p-S, p+S with no bounds
// checks. Strings are circular lists through `nxt`, each stone naming its
// string's `head`; per head we keep the size and the pseudo-liberty count
// (stone/empty adjacencies). A string is captured exactly when its
// pseudo-liberties reach zero, which is all a light playout needs.
//
// Moves on the host side are compact point indices m = row * N + col, with
// m = N * N meaning pass.
//
// Policy `random` (light): uniform over empty points that are neither the
// simple-ko point, nor a one-point eye of the mover (see `is_eye`), nor
// suicide; pass when none is
// left. Policies `3x3` and `m2` (go_weights.cu, the CPU's `Weighted3x3` and
// `M2`): every point weighed each move (`go_weight`), one point drawn in
// proportion, a suicide excluded and the draw repeated; the same draws as
// the CPU's in the same point order. Two consecutive passes end the game,
// as does the move cap of 3 * N * N moves (passes included). Tromp-Taylor
// area scoring with komi.
//
// Needs common.cuh and go_weights.cu before it.

#define GO_EMPTY 0
#define GO_BLACK 1
#define GO_WHITE 2
#define GO_BORDER 3
#define GO_NONE 0xFFFF

template <int N>
struct GoBoard {
    static const int S = N + 2;
    static const int C = S * S;
    static const int P = N * N;

    u8 color[C];
    u16 head[C];
    u16 nxt[C];
    u16 size[C];  // valid at heads
    u16 libs[C];  // pseudo-liberties, valid at heads
    u16 empty[P];
    u16 empty_at[C];
    u16 empties;
    u16 ko;       // padded cell or GO_NONE
    u32 captured[2];  // stones captured of Black [0] and of White [1]

    __device__ __forceinline__ static int padded(int m) { return (m / N + 1) * S + (m % N + 1); }
    __device__ __forceinline__ static int compact(int p) { return (p / S - 1) * N + (p % S - 1); }

    // Builds the board from compact colours (0 empty, 1 black, 2 white).
    __device__ void load(const u8* colors, int ko_compact) {
        for (int p = 0; p < C; ++p) color[p] = GO_BORDER;
        empties = 0;
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            u8 c = colors[m];
            color[p] = c;
            head[p] = p;
            nxt[p] = p;
            size[p] = 1;
            if (c == GO_EMPTY) {
                empty_at[p] = empties;
                empty[empties++] = p;
            }
        }
        // Join strings: relabel through each stone's neighbours.
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            u8 c = color[p];
            if (c != GO_BLACK && c != GO_WHITE) continue;
            const int nb[4] = {p - 1, p + 1, p - S, p + S};
            for (int k = 0; k < 4; ++k) {
                int q = nb[k];
                if (color[q] == c && head[q] != head[p]) merge(head[p], head[q]);
            }
        }
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            if (color[p] == GO_BLACK || color[p] == GO_WHITE) {
                if (head[p] == p) libs[p] = 0;
            }
        }
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            if (color[p] != GO_BLACK && color[p] != GO_WHITE) continue;
            const int nb[4] = {p - 1, p + 1, p - S, p + S};
            for (int k = 0; k < 4; ++k)
                if (color[nb[k]] == GO_EMPTY) libs[head[p]]++;
        }
        ko = ko_compact >= 0 && ko_compact < P ? (u16)padded(ko_compact) : (u16)GO_NONE;
        captured[0] = captured[1] = 0;
    }

    // Joins the strings with heads a and b; the larger absorbs the smaller.
    __device__ __forceinline__ int merge(int a, int b) {
        if (size[a] < size[b]) {
            int t = a;
            a = b;
            b = t;
        }
        int s = b;
        do {
            head[s] = a;
            s = nxt[s];
        } while (s != b);
        u16 t = nxt[a];
        nxt[a] = nxt[b];
        nxt[b] = t;
        size[a] += size[b];
        libs[a] += libs[b];
        return a;
    }

    // A one-point eye of c that filling would waste (the CPU policy's
    // definition, src/game/go/board.rs `is_eye`): all four orthogonal
    // neighbours c or border, and fewer than two "defects" among the
    // diagonals, where each opponent diagonal is one defect and touching
    // the border (any diagonal off the board) is one more.
    __device__ __forceinline__ bool is_eye(int p, u8 c) const {
        const int nb[4] = {p - 1, p + 1, p - S, p + S};
        for (int k = 0; k < 4; ++k) {
            u8 q = color[nb[k]];
            if (q != c && q != GO_BORDER) return false;
        }
        const int dg[4] = {p - S - 1, p - S + 1, p + S - 1, p + S + 1};
        int bad = 0, edge = 0;
        for (int k = 0; k < 4; ++k) {
            u8 q = color[dg[k]];
            bad += q == (c ^ 3);
            edge |= q == GO_BORDER;
        }
        return bad + edge < 2;
    }

    // Legal for colour c at empty cell p (ko not checked): not suicide.
    __device__ __forceinline__ bool not_suicide(int p, u8 c) const {
        const int nb[4] = {p - 1, p + 1, p - S, p + S};
        for (int k = 0; k < 4; ++k) {
            int q = nb[k];
            u8 qc = color[q];
            if (qc == GO_EMPTY) return true;
            if (qc == GO_BORDER) continue;
            int h = head[q];
            int touching = 0;
            for (int j = 0; j < 4; ++j) touching += (color[nb[j]] == qc && head[nb[j]] == h);
            if (qc == c) {
                if (libs[h] > touching) return true;  // own string keeps a liberty
            } else if (libs[h] == touching) {
                return true;  // captures
            }
        }
        return false;
    }

    __device__ __forceinline__ void remove_empty(int p) {
        u16 i = empty_at[p];
        u16 last = empty[--empties];
        empty[i] = last;
        empty_at[last] = i;
    }

    __device__ __forceinline__ void add_empty(int p) {
        empty_at[p] = empties;
        empty[empties++] = p;
    }

    // Removes the string with head h; returns its size.
    __device__ int capture(int h) {
        int n = size[h];
        int s = h;
        do {
            color[s] = GO_EMPTY;
            add_empty(s);
            s = nxt[s];
        } while (s != h);
        // Give liberties back to the strings around the removed stones.
        s = h;
        do {
            const int nb[4] = {s - 1, s + 1, s - S, s + S};
            for (int k = 0; k < 4; ++k) {
                u8 qc = color[nb[k]];
                if (qc == GO_BLACK || qc == GO_WHITE) libs[head[nb[k]]]++;
            }
            s = nxt[s];
        } while (s != h);
        return n;
    }

    // Plays a pseudo-legal move (empty, not ko, not suicide) for colour c.
    __device__ void play(int p, u8 c) {
        const int nb[4] = {p - 1, p + 1, p - S, p + S};
        u8 opp = c ^ 3;
        color[p] = c;
        remove_empty(p);
        head[p] = p;
        nxt[p] = p;
        size[p] = 1;
        int own_libs = 0;
        for (int k = 0; k < 4; ++k) {
            u8 qc = color[nb[k]];
            if (qc == GO_EMPTY) own_libs++;
            else if (qc == GO_BLACK || qc == GO_WHITE) libs[head[nb[k]]]--;
        }
        libs[p] = own_libs;
        int h = p;
        for (int k = 0; k < 4; ++k) {
            int q = nb[k];
            if (color[q] == c && head[q] != h) h = merge(h, head[q]);
        }
        int removed = 0;
        int last_removed = 0;
        for (int k = 0; k < 4; ++k) {
            int q = nb[k];
            if (color[q] == opp && libs[head[q]] == 0) {
                last_removed = q;
                removed += capture(head[q]);
            }
        }
        captured[opp - 1] += removed;
        h = head[p];
        ko = (removed == 1 && size[h] == 1 && libs[h] == 1) ? (u16)last_removed : (u16)GO_NONE;
    }

    // Tromp-Taylor: writes the owner of every compact point (+1/-1/0)
    // into `owner` and returns Black area minus White area. Uses `empty`
    // as its flood-fill stack and marks visited empties in `color` (the
    // board is finished afterwards).
    __device__ int score(signed char* owner) {
        int diff = 0;
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            u8 c = color[p];
            if (c == GO_BLACK) { owner[m] = 1; diff++; }
            else if (c == GO_WHITE) { owner[m] = -1; diff--; }
        }
        for (int m = 0; m < P; ++m) {
            int p = padded(m);
            if (color[p] != GO_EMPTY) continue;
            // Flood fill the region; members go to `empty[0..n)`.
            int n = 0, top = 0;
            int reach = 0;
            color[p] = 4;
            empty[n++] = p;
            while (top < n) {
                int s = empty[top++];
                const int nb[4] = {s - 1, s + 1, s - S, s + S};
                for (int k = 0; k < 4; ++k) {
                    int q = nb[k];
                    u8 qc = color[q];
                    if (qc == GO_EMPTY) {
                        color[q] = 4;
                        empty[n++] = q;
                    } else if (qc == GO_BLACK || qc == GO_WHITE) {
                        reach |= qc;
                    }
                }
            }
            signed char o = reach == GO_BLACK ? 1 : (reach == GO_WHITE ? -1 : 0);
            diff += o * n;
            for (int i = 0; i < n; ++i) owner[compact(empty[i])] = o;
        }
        return diff;
    }
};

struct GoLeaf {
    i32 to_move;   // 1 Black, 2 White
    i32 ko;        // compact point or -1
    i32 passes;    // consecutive passes before this position
    i32 komi2;     // komi in half points
    i32 last;      // compact point of the last move, -1 after a pass or none
                   // (the Patterns policy plays around it; light ones ignore it)
};

// Plays `chosen` for colour c (noting it in `first` if nobody played
// there first), or passes when chosen < 0.
template <int N>
__device__ __forceinline__ void go_play_or_pass(GoBoard<N>& b, int chosen, u8 c, int& passes, u8* first) {
    if (chosen < 0) {
        passes++;
        b.ko = GO_NONE;
    } else {
        passes = 0;
        const int m = GoBoard<N>::compact(chosen);
        if (first[m] == 0) first[m] = c;
        b.play(chosen, c);
    }
}

// One light playout from the loaded board. Returns Black minus White area
// (no komi). Fills `first` (compact index -> 0/1/2).
template <int N>
__device__ int go_random_playout(GoBoard<N>& b, u8 to_move, int passes, Rng& rng, u8* first) {
    const int P = N * N;
    const int cap = 3 * P;
    u8 c = to_move;
    for (int moves = 0; moves < cap && passes < 2; ++moves) {
        int n = b.empties;
        int chosen = -1;
        while (n > 0) {
            int j = (int)rng.below((u32)n);
            int p = b.empty[j];
            if (p != b.ko && !b.is_eye(p, c) && b.not_suicide(p, c)) {
                chosen = p;
                break;
            }
            // Exclude p: move it behind the candidates still to try.
            int last = b.empty[n - 1];
            b.empty[j] = last;
            b.empty_at[last] = j;
            b.empty[n - 1] = p;
            b.empty_at[p] = n - 1;
            --n;
        }
        go_play_or_pass<N>(b, chosen, c, passes, first);
        c ^= 3;
    }
    return 0;
}

// The weight of padded cell p for mover c under 3x3 (M2 false) or M2
// (go_weights.cu). A chain touching p is in atari exactly when all its
// pseudo-liberties are adjacencies to p (p is one of its liberties).
template <int N, bool M2>
__device__ __forceinline__ u32 go_weight(const GoBoard<N>& b, int p, u8 c) {
    const int S = GoBoard<N>::S;
    if (b.color[p] != GO_EMPTY || p == b.ko || b.is_eye(p, c)) return 0;
    const int nb[4] = {p - 1, p + 1, p - S, p + S};
    bool capture = false, save = false;
    for (int k = 0; k < 4; ++k) {
        const u8 qc = b.color[nb[k]];
        if (qc != GO_BLACK && qc != GO_WHITE) continue;
        const int h = b.head[nb[k]];
        int touching = 0;
        for (int j = 0; j < 4; ++j) touching += b.color[nb[j]] == qc && b.head[nb[j]] == h;
        if (b.libs[h] == touching) {
            if (qc == c) save = true;
            else capture = true;
        }
    }
    // Border cells hold GO_BORDER = 3, the code's value for off the board.
    const u32 code = (u32)b.color[p + S - 1] | (u32)b.color[p + S] << 2 | (u32)b.color[p + S + 1] << 4 |
                     (u32)b.color[p - 1] << 6 | (u32)b.color[p + 1] << 8 | (u32)b.color[p - S - 1] << 10 |
                     (u32)b.color[p - S] << 12 | (u32)b.color[p - S + 1] << 14;
    bool far = false;
    if (M2) {
        const int m = GoBoard<N>::compact(p);
        far = gw_far_stone<N>(m / N, m % N, [&](int r, int col) {
            const u8 v = b.color[GoBoard<N>::padded(r * N + col)];
            return v == GO_BLACK || v == GO_WHITE ? 1 : 0;
        });
    }
    return gw_weight(code, capture, save, far, M2);
}

// One 3x3 (M2 false) or M2 playout from the loaded board, as
// go_random_playout. `w` holds the points' weights (N * N bytes; the
// largest weight is below 256).
template <int N, bool M2>
__device__ void go_weighted_playout(GoBoard<N>& b, u8 to_move, int passes, Rng& rng, u8* first, u8* w) {
    const int P = N * N;
    const int cap = 3 * P;
    u8 c = to_move;
    for (int moves = 0; moves < cap && passes < 2; ++moves) {
        u32 total = 0;
        for (int m = 0; m < P; ++m) {
            w[m] = (u8)go_weight<N, M2>(b, GoBoard<N>::padded(m), c);
            total += w[m];
        }
        int chosen = -1;
        while (total > 0) {
            // The first point whose running sum passes r, as the CPU.
            const u32 r = rng.below(total);
            int m = 0;
            u32 sum = w[0];
            while (sum <= r) sum += w[++m];
            const int p = GoBoard<N>::padded(m);
            if (b.not_suicide(p, c)) {
                chosen = p;
                break;
            }
            total -= w[m];
            w[m] = 0;
        }
        go_play_or_pass<N>(b, chosen, c, passes, first);
        c ^= 3;
    }
}

// Bytes of dynamic shared memory one thread of the SHARED flavour needs:
// its board plus the first-play and owner tables, 16-byte aligned.
template <int N>
__host__ __device__ constexpr u32 go_shared_bytes() {
    return (u32)((sizeof(GoBoard<N>) + 2 * N * N + 15) / 16 * 16);
}

// SHARED: each thread's board lives in dynamic shared memory (low latency,
// fewer threads) instead of local memory (cached in L1/L2). POLICY: a
// GO_POLICY_* (the weighted ones only with SHARED false).
template <int N, bool SHARED, int POLICY = GO_POLICY_RANDOM>
__device__ void go_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                            u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int P = N * N;
    extern __shared__ __align__(16) unsigned char dynamic_shared[];
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * P];
    u32 leaf = blockIdx.y;
    clear_shared(tables, &head, P);
    // Threads loop over the leaf's playouts: the host sizes the grid to
    // the occupancy it wants (fewer threads keep more of each board in
    // cache), not to the playout count.
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < playouts_per_leaf; k += gridDim.x * blockDim.x) {
        GoBoard<N> local_board;
        u8 local_first[SHARED ? 1 : P];
        signed char local_owner[SHARED ? 1 : P];
        u8 weights[POLICY == GO_POLICY_RANDOM ? 1 : P];
        unsigned char* mine = dynamic_shared + threadIdx.x * go_shared_bytes<N>();
        GoBoard<N>& b = SHARED ? *reinterpret_cast<GoBoard<N>*>(mine) : local_board;
        u8* first = SHARED ? mine + sizeof(GoBoard<N>) : local_first;
        signed char* owner = SHARED ? (signed char*)(mine + sizeof(GoBoard<N>) + P) : local_owner;
        GoLeaf info = leaves[leaf];
        b.load(boards + (u64)leaf * P, info.ko);
        for (int m = 0; m < P; ++m) first[m] = 0;
        Rng rng(playout_seed(seed, leaf, k));
        if (POLICY == GO_POLICY_RANDOM) go_random_playout<N>(b, (u8)info.to_move, info.passes, rng, first);
        else go_weighted_playout<N, POLICY == GO_POLICY_M2>(b, (u8)info.to_move, info.passes, rng, first, weights);
        int diff = b.score(owner);
        int score2 = 2 * diff - info.komi2;
        u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
        record_playout(tables, &head, P, first, [&](u32 m) { return (i32)owner[m]; }, score2, bw);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(P), tables, &head, P);
}

// Replay: thread i applies moves[i * max_moves ..] (compact points, P =
// pass, 0xFFFF = end) from the empty board, Black first, with full checks.
// Output per sequence: final colours (P bytes), and in `result[i * 4 ..]`:
// error (0 ok, else 1 + index of the first illegal move), captured Black
// stones, captured White stones, Black minus White area (no komi).
template <int N>
__device__ void go_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                          u8* __restrict__ boards_out, i32* __restrict__ result) {
    const int P = N * N;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    GoBoard<N> b;
    u8 zero[P];
    for (int m = 0; m < P; ++m) zero[m] = 0;
    b.load(zero, -1);
    u8 c = GO_BLACK;
    int error = 0;
    for (u32 t = 0; t < max_moves; ++t) {
        u32 m = moves[(u64)i * max_moves + t];
        if (m == 0xFFFF) break;
        if (m < (u32)P) {
            int p = GoBoard<N>::padded(m);
            if (b.color[p] != GO_EMPTY || p == b.ko || !b.not_suicide(p, c)) {
                error = 1 + t;
                break;
            }
            b.play(p, c);
        } else {
            b.ko = GO_NONE;
        }
        c ^= 3;
    }
    for (int m = 0; m < P; ++m) boards_out[(u64)i * P + m] = b.color[GoBoard<N>::padded(m)];
    signed char owner[P];
    int diff = b.score(owner);
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = b.captured[0];
    result[i * 4 + 2] = b.captured[1];
    result[i * 4 + 3] = diff;
}

#define GO_ENTRY(N)                                                                             \
    extern "C" __global__ void go_random_##N(const u8* boards, const GoLeaf* leaves, u32* stats, \
                                             u32 playouts_per_leaf, u64 seed) {                 \
        go_playouts<N, false>(boards, leaves, stats, playouts_per_leaf, seed);                  \
    }                                                                                           \
    extern "C" __global__ void go_shared_##N(const u8* boards, const GoLeaf* leaves, u32* stats, \
                                             u32 playouts_per_leaf, u64 seed) {                 \
        go_playouts<N, true>(boards, leaves, stats, playouts_per_leaf, seed);                   \
    }                                                                                           \
    extern "C" __global__ void go_3x3_##N(const u8* boards, const GoLeaf* leaves, u32* stats,    \
                                          u32 playouts_per_leaf, u64 seed) {                    \
        go_playouts<N, false, GO_POLICY_3X3>(boards, leaves, stats, playouts_per_leaf, seed);   \
    }                                                                                           \
    extern "C" __global__ void go_m2_##N(const u8* boards, const GoLeaf* leaves, u32* stats,     \
                                         u32 playouts_per_leaf, u64 seed) {                     \
        go_playouts<N, false, GO_POLICY_M2>(boards, leaves, stats, playouts_per_leaf, seed);    \
    }                                                                                           \
    extern "C" __constant__ u32 go_shared_bytes_##N = go_shared_bytes<N>();                     \
    extern "C" __global__ void go_replay_##N(const u16* moves, u32 max_moves, u32 sequences,    \
                                             u8* boards_out, i32* result) {                     \
        go_replay<N>(moves, max_moves, sequences, boards_out, result);                          \
    }

GO_ENTRY(9)
GO_ENTRY(13)
GO_ENTRY(19)
