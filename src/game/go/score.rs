//! Tromp-Taylor area scoring: a point belongs to a colour if it holds a
//! stone of that colour, or is empty and its empty region reaches stones of
//! that colour only. Komi is applied by the caller.

use super::board::{Board, BLACK, EMPTY, MAX_CELLS, WHITE};

impl Board {
    /// Writes the owner of every on-board cell into `owner` (+1 black,
    /// -1 white, 0 neither) and returns black area minus white area.
    ///
    /// After a playout nearly every empty point is a one-point eye, so a
    /// point without empty neighbours is decided from its neighbour counts;
    /// larger regions are flood-filled.
    pub fn area_ownership(&self, owner: &mut [i8; MAX_CELLS]) -> i32 {
        let mut score = 0i32;
        for p in self.points() {
            let value = match self.cell(p) {
                BLACK => 1,
                WHITE => -1,
                _ => 0,
            };
            owner[p] = value;
            score += value as i32;
        }
        let mut visited = [false; MAX_CELLS];
        let mut stack = [0u16; MAX_CELLS];
        let mut region = [0u16; MAX_CELLS];
        for &e in self.empties() {
            let e = e as usize;
            if visited[e] {
                continue;
            }
            if self.neighbour_count(e, EMPTY) == 0 {
                visited[e] = true;
                let value = self.single_point_owner(e);
                owner[e] = value;
                score += value as i32;
                continue;
            }
            // Flood fill the region, noting which colours it reaches.
            let mut reaches = [false; 3];
            let mut region_len = 0;
            let mut top = 0;
            stack[top] = e as u16;
            top += 1;
            visited[e] = true;
            while top > 0 {
                top -= 1;
                let p = stack[top] as usize;
                region[region_len] = p as u16;
                region_len += 1;
                for q in self.adjacent(p) {
                    let cell = self.cell(q);
                    if cell == EMPTY {
                        if !visited[q] {
                            visited[q] = true;
                            stack[top] = q as u16;
                            top += 1;
                        }
                    } else if cell == BLACK || cell == WHITE {
                        reaches[cell as usize] = true;
                    }
                }
            }
            let value = match (reaches[BLACK as usize], reaches[WHITE as usize]) {
                (true, false) => 1,
                (false, true) => -1,
                _ => 0,
            };
            for &p in &region[..region_len] {
                owner[p as usize] = value;
            }
            score += value as i32 * region_len as i32;
        }
        score
    }

    /// Owner of an empty point whose neighbours are all stones or border.
    #[inline]
    fn single_point_owner(&self, p: usize) -> i8 {
        // Neighbour counts include the border in both colours; subtract it.
        let black = self.neighbour_count(p, BLACK);
        let white = self.neighbour_count(p, WHITE);
        let border = black + white - 4;
        match (black > border, white > border) {
            (true, false) => 1,
            (false, true) => -1,
            _ => 0,
        }
    }

    /// Black area minus white area, without komi.
    pub fn area_difference(&self) -> i32 {
        let mut owner = [0i8; MAX_CELLS];
        self.area_ownership(&mut owner)
    }
}

impl super::Position {
    /// The on-board points next to `p`.
    pub fn neighbours(&self, p: super::Point) -> impl Iterator<Item = super::Point> + '_ {
        self.board
            .adjacent(p.0 as usize)
            .into_iter()
            .filter(|&q| self.board.cell(q) != super::board::BORDER)
            .map(|q| super::Point(q as u16))
    }

    /// The stones of the string through stone `p` (empty if `p` is empty).
    pub fn string_stones(&self, p: super::Point) -> Vec<super::Point> {
        if self.color_at(p).is_none() {
            return Vec::new();
        }
        self.board
            .chain_stones(p.0 as usize)
            .map(|q| super::Point(q as u16))
            .collect()
    }

    /// Area score (Black minus White, komi included) after taking off the
    /// stones marked in `dead` (indexed by move index): live stones count
    /// for their colour, and each region of empty points and dead stones
    /// counts for the colour that alone borders it. With nothing dead this
    /// is [`Position::area_score`](super::Position::area_score).
    pub fn area_score_without(&self, dead: &[bool]) -> f32 {
        let size = self.size();
        let index = |p: usize| self.board.dense_index(p);
        let alive = |p: usize| match self.board.cell(p) {
            c @ (BLACK | WHITE) if !dead.get(index(p)).copied().unwrap_or(false) => c,
            _ => EMPTY,
        };
        let mut seen = vec![false; size * size];
        let mut stack = Vec::new();
        let mut score = 0i32;
        for p in self.board.points() {
            match alive(p) {
                BLACK => score += 1,
                WHITE => score -= 1,
                _ if seen[index(p)] => {}
                _ => {
                    seen[index(p)] = true;
                    stack.push(p);
                    let (mut region, mut reaches) = (0i32, [false; 3]);
                    while let Some(q) = stack.pop() {
                        region += 1;
                        for n in self.board.adjacent(q) {
                            match self.board.cell(n) {
                                super::board::BORDER => {}
                                _ => match alive(n) {
                                    c @ (BLACK | WHITE) => reaches[c as usize] = true,
                                    _ if !seen[index(n)] => {
                                        seen[index(n)] = true;
                                        stack.push(n);
                                    }
                                    _ => {}
                                },
                            }
                        }
                    }
                    score += match (reaches[BLACK as usize], reaches[WHITE as usize]) {
                        (true, false) => region,
                        (false, true) => -region,
                        _ => 0,
                    };
                }
            }
        }
        score as f32 - self.komi()
    }

    /// Area score (as [`area_score_without`](Self::area_score_without))
    /// after taking off every string that `owners` gives to the opponent:
    /// summed over the string's stones, its own colour owned their points
    /// in fewer playouts than the opponent did. A whole string lives or
    /// dies together, so a stone the playouts sometimes capture alone does
    /// not split it. With no ownership known nothing is dead and this is
    /// the Tromp-Taylor [`area_score`](super::Position::area_score).
    pub fn area_score_judged(&self, owners: crate::game::OwnershipSums<'_>) -> f32 {
        // Per string (indexed by its head), the ownership its own colour got.
        let mut kept = [0f64; MAX_CELLS];
        let stone_share = |p: usize| match self.board.cell(p) {
            BLACK => Some(owners.at(self.board.dense_index(p))),
            WHITE => Some(-owners.at(self.board.dense_index(p))),
            _ => None,
        };
        for p in self.board.points() {
            if let Some(share) = stone_share(p) {
                kept[self.board.head[p] as usize] += share;
            }
        }
        // Dense indices are below MAX_CELLS (the padded layout's size).
        let mut dead = [false; MAX_CELLS];
        let mut any_dead = false;
        for p in self.board.points() {
            if stone_share(p).is_some() && kept[self.board.head[p] as usize] < 0.0 {
                dead[self.board.dense_index(p)] = true;
                any_dead = true;
            }
        }
        // The search scores every visit to a finished position this way:
        // when nothing is dead (the usual case) the plain count is faster.
        if !any_dead {
            return self.area_score();
        }
        self.area_score_without(&dead)
    }
}
