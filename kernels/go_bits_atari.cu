// Go light playouts on the bitboard with the strings in atari kept up to
// date, so that the legal moves are known exactly before the draw.
//
// `aown` / `aopp`: the stones of the mover's / the opponent's strings that
// have exactly one liberty. With them, an empty point is legal for the
// mover exactly when it has an empty neighbour, an own neighbour outside
// `aown` (a string with another liberty) or an opponent neighbour inside
// `aopp` (a capture): one neighbour set, no growth, and no suicide is ever
// drawn. A move changes the liberties of the strings next to it and, when
// it captures, of the mover's strings next to the captured stones; only
// those are counted again (up to two liberties, stopping there).
//
// Same policy as go_bits.cu: uniform over the empty points that are not
// the simple-ko point, not the mover's eye and not suicide; one draw a
// move instead of a draw, a try and a redraw after each suicide, so the
// random stream differs and the distribution does not. go_bits.cu's light
// kernel plays this way where GbLight says so: on 19x19 first (H200, 256
// leaves x 2048, 9.60-9.66 M playouts/s against 9.01-9.05 M; on 9x9 and
// 13x13 within 1%, docs/gpu-kernels-19x19.md), on every size since its string
// growths run on a window of the board around the move (GaWindow; 19x19
// 11.9 M to 16.1 M, 13x13 40.8 M to 57.7 M, 9x9 143 M to 167 M).
// hostcheck/go_atari.cpp checks the sets, the candidates and every play
// against brute force and try_play.
//
// Needs common.cuh, go.cu, go_bitset.cu and go_bits.cu before it.

#ifndef GA_COUNT_GROW
#define GA_COUNT_GROW()
#endif
#ifndef GA_COUNT_WINDOW
#define GA_COUNT_WINDOW(what)
#endif

// Per thread, in shared memory, GB_BLOCK words apart: three sets on their
// way to a window (the board after a move: own, opp, empty; the atari sets
// before) and BACK, a window's set on its way back to the board.
template <int N>
struct GaScratch {
    static constexpr int W = GoGeo<N>::W;
    enum { OWN = 0, OPP = 1, EMPTY = 2, BACK = 3, SETS = 4 };
    u32* p;  // this thread's first word
    __device__ __forceinline__ u32& at(int set, int word) const { return p[(set * W + word) * GB_BLOCK]; }
};

// K words of the board around a move (GbLight<N>::window; the whole board
// where that is 0 or all of it), in registers. Sets go to shared memory
// whole and come back as the window's words, at a word chosen at run time,
// which registers cannot do; the stores and loads go to the LSU pipe, idle
// here, while string growth keeps the ALU pipe busy. A growth step on the
// window costs K / W of one on the whole board, and most strings next to a
// move show two liberties, or end, within a few rows of it.
//
// Exact: stones grown in the window from stones of a string are stones of
// that string, and empty points next to them are its liberties. A growth
// that stopped is the whole string, and a count of its liberties that found
// fewer than two is its count, unless a grown stone lies in the window's
// first or last S bits (`escaped`; not at the board's own ends): only such
// stones have neighbours outside. Then the growth goes on on the whole
// board, from the stones found.
template <int N>
struct GaWindow {
    static constexpr int W = GoGeo<N>::W, S = GoGeo<N>::S;
#ifdef GA_WINDOW
    static constexpr int WANT = GA_WINDOW;  // devbench and hostcheck variants
#else
    static constexpr int WANT = GbLight<N>::window;
#endif
    static constexpr int K = WANT > 0 && WANT < W ? WANT : W;
    // The move sits 16 K - 16 to 16 K + 15 bits into the window (or the
    // window is the board's end), so its neighbours are in it if:
    static_assert(K == W || S <= 16 * K - 16, "the window must hold the move's neighbours");
    typedef Bits<K> BK;
    GaScratch<N> scr;
    int ws;  // the window's first word
    u32 lo_band, hi_band;

    // The window with bit p in its middle.
    __device__ __forceinline__ GaWindow(int p, const GaScratch<N>& scratch) : scr(scratch) {
        const int w = (p + 16 - 16 * K) >> 5;
        ws = w < 0 ? 0 : (w > W - K ? W - K : w);
        lo_band = ws > 0 ? (1u << S) - 1 : 0u;
        hi_band = ws < W - K ? ~0u << (32 - S) : 0u;
    }
    __device__ __forceinline__ BK point(int p) const { return onehot<K>(p - 32 * ws); }
    // The window's words of `a`, through the scratch set `set`.
    __device__ __forceinline__ BK narrow(const Bits<W>& a, int set) const {
#pragma unroll
        for (int i = 0; i < W; ++i) scr.at(set, i) = a.w[i];
        BK r;
#pragma unroll
        for (int j = 0; j < K; ++j) r.w[j] = scr.at(set, ws + j);
        return r;
    }
    // The window's set `s` as a set of the board (BACK is all zeros
    // between calls).
    __device__ __forceinline__ Bits<W> widen(const BK& s) const {
#pragma unroll
        for (int j = 0; j < K; ++j) scr.at(scr.BACK, ws + j) = s.w[j];
        Bits<W> r;
#pragma unroll
        for (int i = 0; i < W; ++i) r.w[i] = scr.at(scr.BACK, i);
#pragma unroll
        for (int j = 0; j < K; ++j) scr.at(scr.BACK, ws + j) = 0;
        return r;
    }
    // Stones of `s` may have neighbours outside the window.
    __device__ __forceinline__ bool escaped(const BK& s) const {
        return ((s.w[0] & lo_band) | (s.w[K - 1] & hi_band)) != 0;
    }
};

template <int N>
struct GaBoard : GbBoard<N> {
    static constexpr int W = GoGeo<N>::W;
    typedef Bits<W> B;
    B aown, aopp;

    __device__ __forceinline__ void turn() {
        GbBoard<N>::turn();
        B t = aown;
        aown = aopp;
        aopp = t;
    }

    // The whole of the strings of `within` that meet `s` (on the whole
    // board or on a window of it).
    template <int M>
    __device__ __forceinline__ static Bits<M> flood(Bits<M> s, const Bits<M>& within) {
        for (;;) {
            GA_COUNT_GROW();
            const Bits<M> g = (nbrs_stride<GoGeo<N>::S>(s) & within) | s;
            if (same(g, s)) return s;
            s = g;
        }
    }

    // At least two points in `x`: two of its words share a set bit, or the
    // words' union has two (two instructions a word).
    template <int M>
    __device__ __forceinline__ static bool two_or_more(const Bits<M>& x) {
        u32 seen = 0, twice = 0;
#pragma unroll
        for (int i = 0; i < M; ++i) {
            twice |= seen & x.w[i];
            seen |= x.w[i];
        }
        return (twice | (seen & (seen - 1))) != 0;
    }

    // Grows `s` (stones of `color`) until its liberties number two (returns
    // 2, `s` part of the string) or it is the whole string (returns its
    // liberties, 0 or 1). It takes two growth steps between tests, as the
    // tests cost nearly as much as a step: it may grow one step more than
    // it needs, and the answer is the same. H200, devbench 256 x 2048,
    // 19x19 light, one to four steps between tests: 11.10 / 11.60 / 11.47
    // / 10.23 M playouts/s; the captures' and joins' floods are better off
    // testing every step (11.09 M with two). On the plain board the
    // pattern kernel's own count, testing after every step, was faster
    // there (0.80 M against 0.64 M on 19x19); on this board it uses this one.
    // Works on the whole board or on a window of it (M words).
    template <int M>
    __device__ __forceinline__ static int liberties_upto2(Bits<M>& s, const Bits<M>& color, const Bits<M>& empty) {
        typedef Bits<M> B;
        const int S = GoGeo<N>::S;
        for (;;) {
            GA_COUNT_GROW();
            GA_COUNT_GROW();
            const B g = (nbrs_stride<S>(s) & color) | s;
            const B d = nbrs_stride<S>(g);
            const B libs = d & empty;
            if (two_or_more(libs)) {
                s = g;
                return 2;
            }
            const B h = (d & color) | g;
            if (same(h, g)) {
                s = g;
                return any(libs) ? 1 : 0;
            }
            s = h;
        }
    }

    // The stones of `color`'s strings with exactly one liberty.
    __device__ static B atari_stones(const B& color, const B& empty) {
        B a = none<W>(), rest = color;
        while (any(rest)) {
            B s = flood(lowest_set(rest), color);
            if (popc(nbrs<N>(s) & empty) == 1) a |= s;
            rest = andnot(rest, s);
        }
        return a;
    }

    // The empty board, Black to move: no string, none in atari.
    __device__ __forceinline__ void clear() {
        GbBoard<N>::clear();
        aown = aopp = none<W>();
    }

    // Empty points the mover may play by the policy: not the ko point, not
    // an own eye, not suicide.
    __device__ __forceinline__ B candidates() const {
        const B empty = this->empty();
        const B good = empty | andnot(this->own, aown) | (this->opp & aopp);
        B cand = andnot(empty, this->eyes()) & nbrs<N>(good);
        if (this->ko >= 0) cand = andnot(cand, onehot<W>(this->ko));
        return cand;
    }

    // Plays the mover at bit `p`, a candidate (so legal). Does not pass the
    // turn. `scr`: this thread's scratch (GaScratch). Every string growth
    // runs on the window around the move (GaWindow).
    __device__ __forceinline__ void play(int p, const GaScratch<N>& scr) { play(p, nbrs<N>(onehot<W>(p)), scr); }
    // The same with the point's neighbours `nb` known.
    __device__ __forceinline__ void play(int p, const B& nb, const GaScratch<N>& scr) {
        typedef GaWindow<N> Win;
        typedef typename Win::BK BK;
        const int S = GoGeo<N>::S;
        const Win win(p, scr);
        const B at = onehot<W>(p);
        const BK at_w = win.point(p);
        const BK nb_w = nbrs_stride<S>(at_w);
        const bool lone = !any(nb & this->own);
        B taken = none<W>();
        BK taken_w = none<Win::K>();
        int n = 0;
        if (any(nb & aopp)) {
            // The opponent's strings in atari next to `at` are captured.
            const BK aopp_w = win.narrow(aopp, scr.OWN);
            taken_w = flood(nb_w & aopp_w, aopp_w);
            taken = win.widen(taken_w);
            if (win.escaped(taken_w)) {
                taken = flood(taken, aopp);
                // The own strings in atari next to them gain liberties (on
                // the window below, which would miss some here).
                const B freed = nbrs<N>(taken) & aown;
                if (any(freed)) aown = andnot(aown, flood(freed, aown));
            }
            n = popc(taken);
            this->opp = andnot(this->opp, taken);
            aopp = andnot(aopp, taken);
            if (this->me == 0) this->captured_white += n;
            else this->captured_black += n;
        }
        this->own |= at;
        const B empty = this->empty();
        // Own strings in atari next to the captured stones have two
        // liberties now, and those next to `at` join the new string, which
        // is counted below: none of them is in atari any more.
        if (n > 0 || any(nb & aown)) {
            const BK aown_w = win.narrow(aown, scr.OPP);
            const BK seeds = nbrs_stride<S>(taken_w | at_w) & aown_w;
            if (any(seeds)) {
                const BK s = flood(seeds, aown_w);
                B f = win.widen(s);
                if (win.escaped(s)) f = flood(f, aown);
                aown = andnot(aown, f);
            }
        }
        // The new string, unless the stone has two empty neighbours, and the
        // opponent's strings next to `at`, which lost a liberty.
        const bool count_own = !two_or_more(nb & empty);
        if (count_own || any(nb & this->opp)) count_liberties(win, at_w, count_own, empty);
        this->ko = -1;
        if (n == 1 && lone && popc(nb & empty) == 1) this->ko = select_bit(taken, 0);
    }

    // The liberty counts of `play`, up to two, on the window: most strings
    // next to a move show two liberties within a few rows of it. One loop
    // for the new string and the opponent's, so that each count is compiled
    // once (the kernel's code outgrows the instruction cache otherwise).
    __device__ __forceinline__ void count_liberties(const GaWindow<N>& win, const Bits<GaWindow<N>::K>& at_w,
                                                    bool count_own, const B& empty) {
        typedef typename GaWindow<N>::BK BK;
        const BK own_w = win.narrow(this->own, win.scr.OWN);
        const BK opp_w = win.narrow(this->opp, win.scr.OPP);
        const BK empty_w = win.narrow(empty, win.scr.EMPTY);
        const BK nb_w = nbrs_stride<GoGeo<N>::S>(at_w);
        BK foes = nb_w & opp_w;
        bool mine = count_own;
        while (mine || any(foes)) {
            BK s = pick(mine, (nb_w & own_w) | at_w, lowest_set(foes));
            if (liberties_upto2(s, pick(mine, own_w, opp_w), empty_w) < 2) {
                const bool out = win.escaped(s);
                GA_COUNT_WINDOW(out ? 1 : 2);
                B f = win.widen(s);
                if (!out || liberties_upto2(f, pick(mine, this->own, this->opp), empty) < 2) {
                    if (mine) aown |= f;
                    else aopp |= f;
                }
            } else {
                GA_COUNT_WINDOW(0);
            }
            if (!mine) foes = andnot(foes, s);
            mine = false;
        }
    }

    // `c ? a : b` word by word: a choice between two sets at run time,
    // which as a reference would put both in local memory.
    template <int M>
    __device__ __forceinline__ static Bits<M> pick(bool c, const Bits<M>& a, const Bits<M>& b) {
        Bits<M> r;
#pragma unroll
        for (int i = 0; i < M; ++i) r.w[i] = c ? a.w[i] : b.w[i];
        return r;
    }
};

// Light playouts on a GaBoard (gb_leaf_playouts in go_bits.cu is the
// frame): one draw a move, from the exact candidates. The leaf's strings in
// atari are found once a block (two threads, a colour each) and copied into
// each playout.
template <int N>
struct GaPolicy {
    typedef GaBoard<N> Board;
    static constexpr int W = GoGeo<N>::W;
    u32 (*start_atari)[W];  // shared: [colour][word]
    GaScratch<N> scr;

    __device__ __forceinline__ void prepare(const u32 (*start)[W]) {
        if (threadIdx.x < 2) {
            Bits<W> stones, empty;
#pragma unroll
            for (int i = 0; i < W; ++i) {
                stones.w[i] = start[threadIdx.x][i];
                empty.w[i] = go_masks<N>().all.w[i] & ~(start[0][i] | start[1][i]);
            }
            const Bits<W> a = GaBoard<N>::atari_stones(stones, empty);
#pragma unroll
            for (int i = 0; i < W; ++i) start_atari[threadIdx.x][i] = a.w[i];
        }
        __syncthreads();
    }
    __device__ __forceinline__ void begin(Board& b, const GoLeaf&) {
#pragma unroll
        for (int i = 0; i < W; ++i) {
            b.aown.w[i] = start_atari[b.me][i];
            b.aopp.w[i] = start_atari[b.me ^ 1][i];
        }
    }
    __device__ __forceinline__ int step(Board& b, Rng& rng) {
        const Bits<W> cand = b.candidates();
        const int n = popc(cand);
        if (n == 0) return GB_PASS;
        const int p = select_bit(cand, (int)rng.below((u32)n));
        b.play(p, scr);
        return p;
    }
};

template <int N>
__device__ void go_bits_atari_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                       u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    typedef GoGeo<N> G;
    __shared__ u32 start_atari[2][G::W];
    __shared__ u32 scratch[GaScratch<N>::SETS * G::W * GB_BLOCK];
    GaPolicy<N> policy = {start_atari, {scratch + threadIdx.x}};
#pragma unroll
    for (int i = 0; i < G::W; ++i) policy.scr.at(policy.scr.BACK, i) = 0;
    gb_leaf_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed, policy);
}
