//! Questions asked of a whole position: whether a move is possible and whether it wins, who
//! has won, boards built from stone sets, the forbidden points, the text rendering and the
//! check of the incremental state against a recomputation.

use super::*;

impl Board {
    /// Checks that `p` is an empty board point.
    ///
    /// Errors: [`CoordError::OffBoard`], [`CoordError::Occupied`].
    pub fn check_move(&self, p: Pos) -> Result<(), BoardError> {
        if !self.contains(p) {
            return Err(CoordError::OffBoard(
                p.to_notation(),
                self.width,
                self.height,
            ));
        }
        if !self.is_empty(p) {
            return Err(CoordError::Occupied(p.to_notation()));
        }
        Ok(())
    }

    /// Whether a stone of `c` at empty point `p` makes a winning line under the rule
    /// (docs/rules.md §3; caro per docs/protocol.md §5.3).
    #[inline]
    pub fn is_five(&self, c: Color, p: Pos) -> bool {
        self.combo(c, p) == Combo::Five
    }

    /// The result of the side to move playing `p`: a win by five, a renju foul (a loss for
    /// black), a draw when it fills the board, or `None` if the game goes on.
    pub fn result_of_move(&self, p: Pos) -> Option<GameResult> {
        let c = self.side_to_move();
        if self.is_five(c, p) {
            return Some(GameResult::Win(c));
        }
        if self.rule.has_forbidden(c) && self.forbidden(p).is_some() {
            return Some(GameResult::Win(c.opponent()));
        }
        if self.stones + 1 >= self.width * self.height {
            return Some(GameResult::Draw);
        }
        None
    }

    /// Whether the last move made a five (so the game is over); the colour that made it.
    pub fn last_move_won(&self) -> Option<Color> {
        let p = self.last_move();
        if p.is_none() {
            return None;
        }
        let c = *self.colors.last()?;
        // Read the patterns with the last stone lifted.
        let mut l = self.lines.clone();
        l.clear(p);
        let code = l.code(p, c);
        (self.combo_tables[c.index()].combo(code) == Combo::Five).then_some(c)
    }

    /// Whether a stone of `d` on the empty point `p` would leave `a` a five on one of the
    /// points `fives` (read from the lines alone: cheaper than a make and an undo, and the
    /// board is unchanged afterwards). `p` must be an empty board point and `fives` board
    /// points; a five as the rule defines it (docs/rules.md §2-3, caro caps included).
    pub fn leaves_a_five(&mut self, p: Pos, d: Color, a: Color, fives: &[Pos]) -> bool {
        self.lines.set(p, super::stone(d));
        let table = self.combo_tables[a.index()];
        let left = fives.iter().any(|&f| {
            self.lines.cells[f.index()] == EMPTY
                && table.combo(self.lines.code(f, a)) == Combo::Five
        });
        self.lines.clear(p);
        left
    }

    /// The colour that already has a winning line on the board, if any (O(stones); for
    /// checking positions given by users, not for search).
    pub fn winner(&self) -> Option<Color> {
        for p in self.points() {
            let c = match self.cell(p) {
                BLACK => Color::Black,
                WHITE => Color::White,
                _ => continue,
            };
            let mut l = self.lines.clone();
            l.clear(p);
            if self.combo_tables[c.index()].combo(l.code(p, c)) == Combo::Five {
                return Some(c);
            }
        }
        None
    }

    /// Plays a list of moves alternately from black.
    ///
    /// Errors: the first point that is off the board or occupied.
    pub fn play_all(&mut self, moves: &[Pos]) -> Result<(), BoardError> {
        for &p in moves {
            self.check_move(p)?;
            self.make(p);
        }
        Ok(())
    }

    /// Sets up a position from stone sets (the data files give sets, not orders): black and
    /// white stones are interleaved into a move list; surplus stones of one colour are placed
    /// as extra moves with the other colour's turns skipped by pairing. The side to move is
    /// then black if the counts are equal and white if black has one more; other count
    /// differences are rejected.
    ///
    /// Errors: off-board or repeated points, or counts that no game reaches
    /// ([`CoordError::BadNotation`] names the counts).
    pub fn from_stones(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[Pos],
        white: &[Pos],
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(width, height, rule)?;
        if !(black.len() == white.len() || black.len() == white.len() + 1) {
            return Err(CoordError::BadNotation(format!(
                "{} black and {} white stones: black must have as many stones as white or one more",
                black.len(),
                white.len()
            )));
        }
        for i in 0..black.len() {
            b.check_move(black[i])?;
            b.make(black[i]);
            if i < white.len() {
                b.check_move(white[i])?;
                b.make(white[i]);
            }
        }
        Ok(b)
    }

    /// Like [`Board::from_stones`] but any counts are accepted and the side to move is
    /// given (puzzle positions). Stones are placed interleaved, each with its own colour.
    ///
    /// Errors: off-board or repeated points.
    pub fn from_stones_to_move(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[Pos],
        white: &[Pos],
        to_move: Color,
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(width, height, rule)?;
        let n = black.len().max(white.len());
        for i in 0..n {
            for (list, c) in [(black, Color::Black), (white, Color::White)] {
                if let Some(&p) = list.get(i) {
                    b.check_move(p)?;
                    b.make_colored(p, c);
                }
            }
        }
        b.side = to_move;
        Ok(b)
    }

    /// Forbidden kind of `p` for black under renju, or `None` if black may play there (or the
    /// rule has no forbidden moves). Uses the stored patterns for the clear cases and the
    /// exact recursive test (docs/rules.md §3) for double-three candidates.
    pub fn forbidden(&self, p: Pos) -> Option<ForbiddenKind> {
        if self.rule != Rule::Renju || !self.is_empty(p) {
            return None;
        }
        forbidden::fast(self, p)
    }

    /// Every forbidden point of black, with its kind, in row order from `a1`.
    pub fn forbidden_points(&self) -> Vec<(Pos, ForbiddenKind)> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        self.empty_points()
            .filter_map(|p| self.forbidden(p).map(|k| (p, k)))
            .collect()
    }

    /// Draws the board as text for debugging and test failures: row 1 at the **bottom** and
    /// row `height` at the top, the rows numbered and the columns lettered on both sides; `X`
    /// black, `O` white, `#` dead stone, `.` empty, and `marks` drawn on empty points. This is
    /// the mirror image of the project's diagrams (`view`, docs/rules.md §1), which put row 1
    /// at the top: a stone's label here is still its notation, but the picture is flipped top
    /// to bottom.
    pub fn render(&self, marks: &[(Pos, char)]) -> String {
        let mut s = String::new();
        let letters: String = (0..self.width)
            .map(|x| {
                if x < 26 {
                    format!(" {}", (b'a' + x as u8) as char)
                } else {
                    "  ".to_string()
                }
            })
            .collect();
        s.push_str(&format!("   {}\n", letters));
        for y in (0..self.height).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.width {
                let p = Pos::new(x, y);
                let ch = match self.cell(p) {
                    BLACK => 'X',
                    WHITE => 'O',
                    WALL => '#',
                    _ => marks.iter().find(|m| m.0 == p).map(|m| m.1).unwrap_or('.'),
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!(" {:>2}\n", y + 1));
        }
        s.push_str(&format!("   {}\n", letters));
        s
    }

    /// Recomputes the hash, the line codes, the threat classes and `near` (stone counts and
    /// the candidate area) from scratch and compares them with the incremental ones (for
    /// tests). Returns a description of the first difference.
    pub fn verify_incremental(&self) -> Result<(), String> {
        let mut hash = 0u64;
        for (&p, &c) in self.moves.iter().zip(&self.colors) {
            hash ^= zobrist(c, p);
        }
        for p in self.points() {
            if self.cell(p) == WALL {
                hash ^= zobrist(Color::Black, p) ^ zobrist(Color::White, p);
            }
        }
        if hash != self.hash {
            return Err("hash differs".into());
        }
        let fresh = Lines::new(self.width, self.height, self.rule);
        let mut fresh = fresh;
        for p in self.points() {
            if self.cell(p) != EMPTY {
                fresh.set(p, self.cell(p));
            }
        }
        for p in self.points() {
            let mut n = 0u8;
            for dy in -2..=2i64 {
                for dx in -2..=2i64 {
                    let (x, y) = (p.x() as i64 + dx, p.y() as i64 + dy);
                    if self.contains_xy(x, y)
                        && self.cell(Pos::new(x as usize, y as usize)) != EMPTY
                    {
                        n += 1;
                    }
                }
            }
            if n != self.near(p) {
                return Err(format!("near differs at {}", p));
            }
            let in_area = (self.near[p.y() + 2] >> (p.x() + 2)) & 1 == 1;
            if in_area != (n > 0) {
                return Err(format!("near area differs at {}", p));
            }
            if self.cell(p) != EMPTY {
                continue;
            }
            for c in [Color::Black, Color::White] {
                let code = fresh.code(p, c);
                if canon::canon(self.code(c, p)) != self.class(c, p) as usize {
                    return Err(format!("class of {} at {} differs", c.name(), p));
                }
                if code != self.code(c, p) {
                    return Err(format!(
                        "code of {} at {} differs: {:04x} vs {:04x}",
                        c.name(),
                        p,
                        code,
                        self.code(c, p)
                    ));
                }
            }
        }
        Ok(())
    }
}
