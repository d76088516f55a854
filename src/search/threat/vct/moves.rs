//! The moves of the proof-number search: the attacker's winning threats and quiet threats,
//! the defender's candidate answers (blocks, the relevance zone of a null-move VCF), the
//! children of a node and their table keys.

use super::*;

impl VctSolver {
    /// The attacker's winning threats `S` (AND node step 4).
    pub(super) fn winning_threats(&self, b: &Board) -> SmallVec<[Pos; 8]> {
        let a = self.attacker;
        b.empty_points()
            .filter(|&p| is_four_point(b, a, p) && is_winning_threat(b, a, p))
            .collect()
    }

    pub(super) fn next_stamp(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// The points on the four-making lines of `s` (within five points, `s` included).
    pub(super) fn line_points(b: &Board, a: Color, s: Pos, out: &mut Moves) {
        let code = b.code(a, s);
        out.push(s);
        for (d, &delta) in DELTA.iter().enumerate() {
            let n = (code >> (4 * d)) & 0xF;
            if !(Pattern::Four as u16..=Pattern::DoubleFour as u16).contains(&n) {
                continue;
            }
            for k in (-5..=5i32).filter(|&k| k != 0) {
                let q = Pos((s.index() as i32 + k * delta) as u16);
                if b.is_empty(q) {
                    out.push(q);
                }
            }
        }
    }

    /// The defence points of AND-node step 5 before filtering: the points common to the
    /// lines of every point of `threats`, legal for the defender.
    pub(super) fn defence_candidates(&mut self, b: &Board, threats: &[Pos]) -> Moves {
        let a = self.attacker;
        let d = a.opponent();
        let mut cand = Moves::new();
        Self::line_points(b, a, threats[0], &mut cand);
        for &s in &threats[1..] {
            let mut other = Moves::new();
            Self::line_points(b, a, s, &mut other);
            let g = self.next_stamp();
            for &q in &other {
                self.stamp[q.index()] = g;
            }
            cand.retain(|q| self.stamp[q.index()] == g);
        }
        let g = self.next_stamp();
        cand.retain(|q| {
            let fresh = self.stamp[q.index()] != g;
            self.stamp[q.index()] = g;
            fresh
        });
        cand.retain(|q| is_legal(b, d, *q));
        cand
    }

    /// The attacker's VCF if the defender passed (the side to move is switched for the
    /// search and switched back).
    pub(super) fn null_move_vcf(&mut self, b: &mut Board, stop: &AtomicBool) -> Option<Vec<Pos>> {
        let a = self.attacker;
        b.set_side_to_move(a);
        let r = self.run_vcf(b, stop);
        b.set_side_to_move(a.opponent());
        match r {
            VcfOutcome::Win(line) => Some(line),
            VcfOutcome::Unknown => {
                self.incomplete = true;
                None
            }
            VcfOutcome::None => None,
        }
    }

    /// The empty points within five of a point of `line` on one of its four lines, the
    /// points of `line` being its moves and the attacker's five points at its end (the block
    /// that is forbidden to black when the line ends in a forbidden-point capture): a
    /// defender stone anywhere else leaves every move of the line as it was (same patterns,
    /// same five points, same forbidden points but for the recursive double-three rule), so
    /// the line still wins. `line` starts with an attacker move, on the current board.
    pub(super) fn relevance_zone(&mut self, b: &mut Board, line: &[Pos]) -> Vec<Pos> {
        let a = self.attacker;
        let mut seeds: SmallVec<[Pos; 64]> = line.iter().copied().collect();
        for (i, &m) in line.iter().enumerate() {
            b.make_colored(m, if i % 2 == 0 { a } else { a.opponent() });
        }
        seeds.extend(five_points(b, a, 4));
        for _ in line {
            b.undo();
        }
        let g = self.next_stamp();
        let mut zone = Vec::new();
        for &m in &seeds {
            for &delta in &DELTA {
                for k in -5..=5i32 {
                    let q = Pos((m.index() as i32 + k * delta) as u16);
                    if b.is_empty(q) && self.stamp[q.index()] != g {
                        self.stamp[q.index()] = g;
                        zone.push(q);
                    }
                }
            }
        }
        zone
    }

    /// The moves of a quiet-threat node: legal non-threat points with two or more line
    /// shapes that can grow (open or closed twos and threes), or a closed three, after which
    /// the attacker would have a VCF if the defender passed; scored by the attacker's point
    /// score.
    pub(super) fn quiet_threats(
        &mut self,
        b: &mut Board,
        scored: &mut SmallVec<[(i32, Pos); 64]>,
        stop: &AtomicBool,
    ) {
        let a = self.attacker;
        let pts: SmallVec<[Pos; 64]> = b
            .empty_points()
            .filter(|&p| {
                let code = b.code(a, p);
                let growing = (0..4)
                    .filter(|d| {
                        let n = (code >> (4 * d)) & 0xF;
                        (Pattern::ClosedTwo as u16..=Pattern::ClosedThree as u16).contains(&n)
                    })
                    .count();
                let closed_three =
                    (0..4).any(|d| (code >> (4 * d)) & 0xF == Pattern::ClosedThree as u16);
                (growing >= 2 || closed_three) && !is_threat_point(b, a, p) && is_legal(b, a, p)
            })
            .collect();
        for p in pts {
            // Each candidate costs a VCF sub-search: check the budget and the clock before
            // every one.
            if self.out_of_budget(stop) {
                return;
            }
            b.make_colored(p, a);
            b.set_side_to_move(a);
            let budget = QUIET_VCF_BUDGET
                .min(self.limit.saturating_sub(self.nodes))
                .max(1);
            let r = self.vcf.solve(b, budget, stop);
            self.nodes += self.vcf.nodes();
            b.undo();
            if r.is_win() {
                let score = b.combo_table(a).score(b.code(a, p));
                scored.push((score.clamp(0, 9_999), p));
            }
        }
    }

    /// First visit of a node: terminal verdicts, else its moves in `out` (best first).
    pub(super) fn expand(
        &mut self,
        b: &mut Board,
        kind: Kind,
        out: &mut Moves,
        stop: &AtomicBool,
    ) -> Expansion {
        let a = self.attacker;
        let d = a.opponent();
        if kind == Kind::Quiet {
            let mut scored: SmallVec<[(i32, Pos); 64]> = SmallVec::new();
            self.quiet_threats(b, &mut scored, stop);
            if scored.is_empty() {
                return Expansion::Disproved;
            }
            scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            out.extend(scored.iter().map(|x| x.1));
            return Expansion::Moves;
        }
        if kind == Kind::Or {
            if let Some(&p) = five_points(b, a, 1).first() {
                self.wins.insert(b.hash(), vec![p]);
                return Expansion::Proved;
            }
            let df = five_points(b, d, 2);
            if df.len() >= 2 {
                return Expansion::Disproved;
            }
            match self.run_vcf(b, stop) {
                VcfOutcome::Win(line) => {
                    self.wins.insert(b.hash(), line);
                    return Expansion::Proved;
                }
                VcfOutcome::Unknown => self.incomplete = true,
                VcfOutcome::None => {}
            }
            if let Some(&q) = df.first() {
                if !is_legal(b, a, q) {
                    return Expansion::Disproved;
                }
                out.push(q);
                return Expansion::Moves;
            }
            let mut scored: SmallVec<[(i32, Pos); 64]> = SmallVec::new();
            for p in b.empty_points() {
                if !is_threat_point(b, a, p) || !is_legal(b, a, p) {
                    continue;
                }
                let own = b.combo(a, p) as i32;
                let score =
                    b.combo_table(a).score(b.code(a, p)) + b.combo_table(d).score(b.code(d, p));
                scored.push((own * 10_000 + score.clamp(0, 9_999), p));
            }
            if scored.is_empty() && !self.quiet {
                return Expansion::Disproved;
            }
            scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            out.extend(scored.iter().map(|x| x.1));
            if self.quiet {
                out.push(Pos::NONE);
            }
            Expansion::Moves
        } else {
            if !five_points(b, d, 1).is_empty() {
                return Expansion::Disproved;
            }
            let af = five_points(b, a, 8);
            if !af.is_empty() {
                // The defender must stop the five points: block them (or, in caro, cap one
                // beyond an end). No way: proved (two five points, a forbidden block).
                let mut defs = PosList::new();
                five_defences(b, a, &af, &mut defs);
                if defs.is_empty() {
                    return Expansion::Proved;
                }
                out.extend_from_slice(&defs);
                return Expansion::Moves;
            }
            match self.run_vcf(b, stop) {
                VcfOutcome::Win(_) => return Expansion::Disproved,
                VcfOutcome::Unknown => {
                    self.incomplete = true;
                    return Expansion::Disproved;
                }
                VcfOutcome::None => {}
            }
            // In caro a straight four can be capped, so `S` proves nothing there: the VCF
            // threat of step 5 covers it.
            let threats = if b.rule().has_caps() {
                SmallVec::new()
            } else {
                self.winning_threats(b)
            };
            let mut scored: SmallVec<[(i32, Pos); 64]> = SmallVec::new();
            let g;
            if !threats.is_empty() {
                let cand = self.defence_candidates(b, &threats);
                g = self.next_stamp();
                for &p in &cand {
                    self.stamp[p.index()] = g;
                    if is_four_point(b, d, p) {
                        continue; // kept below as a counter-four
                    }
                    b.make_colored(p, d);
                    let holds = threats.iter().any(|&s| is_winning_threat(b, a, s));
                    b.undo();
                    if !holds {
                        let score = b.combo_table(d).score(b.code(d, p))
                            + b.combo_table(a).score(b.code(a, p));
                        scored.push((20_000 + score.clamp(0, 9_999), p));
                    }
                }
            } else {
                // No straight-four threat: the attacker's move was a quiet VCF threat (or a
                // fake three). The threat is the attacker's VCF if the defender passed.
                let line = if self.quiet {
                    self.null_move_vcf(b, stop)
                } else {
                    None
                };
                let Some(line) = line else {
                    return Expansion::Disproved;
                };
                let zone = self.relevance_zone(b, &line);
                g = self.next_stamp();
                for &p in &zone {
                    self.stamp[p.index()] = g;
                    if is_four_point(b, d, p) || !is_legal(b, d, p) {
                        continue;
                    }
                    b.make_colored(p, d);
                    let r = self.run_vcf(b, stop);
                    b.undo();
                    if !r.is_win() {
                        let score = b.combo_table(d).score(b.code(d, p))
                            + b.combo_table(a).score(b.code(a, p));
                        scored.push((20_000 + score.clamp(0, 9_999), p));
                    }
                }
            }
            for p in b.empty_points() {
                if is_four_point(b, d, p) && is_legal(b, d, p) {
                    let own = b.combo_table(d).score(b.code(d, p)).clamp(0, 9_999);
                    let bonus = if self.stamp[p.index()] == g {
                        10_000
                    } else {
                        0
                    };
                    scored.push((bonus + own, p));
                }
            }
            if scored.is_empty() {
                return Expansion::Proved;
            }
            scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            out.extend(scored.iter().map(|x| x.1));
            Expansion::Moves
        }
    }

    /// The table key of a node.
    #[inline]
    pub(super) fn key_of(b: &Board, kind: Kind) -> u64 {
        if kind == Kind::Quiet {
            b.hash() ^ QUIET_SALT
        } else {
            b.hash()
        }
    }

    /// The key and table entry of the child reached by `m` (`Pos::NONE`: the virtual
    /// quiet-threat node of the same position).
    #[inline]
    pub(super) fn child(&self, b: &Board, mover: Color, m: Pos) -> (u64, Entry) {
        if m.is_none() {
            let k = b.hash() ^ QUIET_SALT;
            let e = self.tt.get(&k).copied().unwrap_or(Entry {
                pn: QUIET_PN,
                ..UNKNOWN_ENTRY
            });
            (k, e)
        } else {
            let k = b.hash() ^ zobrist(mover, m);
            (k, self.tt.get(&k).copied().unwrap_or(UNKNOWN_ENTRY))
        }
    }

    /// The moves of a node: from the table, or by expanding it (which may settle it).
    pub(super) fn node_moves(
        &mut self,
        b: &mut Board,
        kind: Kind,
        out: &mut Moves,
        stop: &AtomicBool,
    ) -> Option<(u32, u32)> {
        let key = Self::key_of(b, kind);
        if let Some(e) = self.tt.get(&key) {
            if e.pn == 0 || e.dn == 0 {
                return Some((e.pn, e.dn));
            }
            if e.expanded {
                out.extend_from_slice(
                    &self.arena[e.start as usize..e.start as usize + e.len as usize],
                );
                return None;
            }
        }
        let verdict = self.expand(b, kind, out, stop);
        let (pn, dn) = match verdict {
            Expansion::Proved => (0, INF),
            Expansion::Disproved => (INF, 0),
            Expansion::Moves => {
                let start = self.arena.len() as u32;
                let len = out.len().min(u16::MAX as usize);
                self.arena.extend_from_slice(&out[..len]);
                let e = self.tt.entry(key).or_insert(UNKNOWN_ENTRY);
                e.expanded = true;
                e.start = start;
                e.len = len as u16;
                return None;
            }
        };
        let e = self.tt.entry(key).or_insert(UNKNOWN_ENTRY);
        e.pn = pn;
        e.dn = dn;
        Some((pn, dn))
    }
}
