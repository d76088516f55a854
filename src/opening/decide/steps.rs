//! The decisions of each opening rule, one step each: swap2, the renju and Swap1/Swap5
//! openings, the colour choice, fifth-move offers and the choice among them, Soosorv's
//! fourth move and swap2, and the placement of stones (called by [`super::decide_on`]).

use super::*;

/// Swap2 through [`swap2::decide`]. The evaluation is that of the search behind the answer:
/// the chosen three stones' at stage A, the first search at stages B and C.
pub(super) fn swap2_step(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let mut seen: Vec<(Board, SearchResult)> = Vec::new();
    let total = ev_budget(ev);
    let answer = {
        let mut cb = |b: &Board, bu: Budget| {
            let probe = Probe {
                budget: bu,
                multipv: 1,
                excluded: Vec::new(),
            };
            let r = ev_search(ev, b, &probe);
            seen.push((b.clone(), r.clone()));
            r
        };
        swap2::decide(board, total, &mut cb)
    }
    .ok_or(OpeningError::BoardFull)?;
    let behind = match answer {
        Swap2Answer::Three(ps) => seen.iter().position(|(b, _)| b.moves() == ps),
        _ => None,
    }
    .unwrap_or(0);
    let considered = match answer {
        Swap2Answer::Three(_) => seen
            .iter()
            .map(|(b, r)| Considered {
                label: b
                    .moves()
                    .iter()
                    .map(|p| p.to_notation())
                    .collect::<Vec<_>>()
                    .join(","),
                stones: b.moves().to_vec(),
                black: Eval::from_result(b, r).black,
            })
            .collect(),
        _ => Vec::new(),
    };
    let eval = seen
        .get(behind)
        .map(|(b, r)| Eval::from_result(b, r))
        .unwrap_or_default();
    Ok((Action::Swap2(answer), eval, considered))
}

/// The time the evaluator has left, as a budget for a callee that splits it itself.
pub(super) fn ev_budget(ev: &Evaluator) -> Budget {
    let spent = ev.elapsed_ms();
    let b = ev.total_budget();
    Budget {
        soft_ms: b.soft_ms.saturating_sub(spent).max(1),
        hard_ms: b.hard_ms.saturating_sub(spent).max(1),
        ample: b.ample,
    }
}

pub(super) fn ev_search(ev: &mut Evaluator, b: &Board, probe: &Probe) -> SearchResult {
    ev.search_raw(b, probe)
}

/// RIF and Soosorv-8: the opening of the 26 (banned ones left out) closest to balance.
pub(super) fn open_renju(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let fits: Vec<(&RenjuOpening, [Pos; 3])> = renju26::OPENINGS
        .iter()
        .filter(|o| !o.banned)
        .filter_map(|o| o.stones(board.width(), board.height()).map(|s| (o, s)))
        .collect();
    if fits.is_empty() {
        // A board too small for the 5x5 square: three stones near the centre instead.
        return open_swap5_like(board, ev, 3);
    }
    pick_balanced(
        board,
        ev,
        fits.iter()
            .map(|(o, s)| (o.code.to_string(), s.to_vec()))
            .collect(),
    )
}

/// Evaluates each candidate opening (stones from an empty board) and keeps the one whose
/// score is closest to 0 (ties: the earlier one).
pub(super) fn pick_balanced(
    board: &Board,
    ev: &mut Evaluator,
    cands: Vec<(String, Vec<Pos>)>,
) -> Result<Outcome, OpeningError> {
    let mut considered = Vec::new();
    let mut best: Option<(usize, Eval)> = None;
    let total = cands.len();
    for (i, (label, stones)) in cands.iter().enumerate() {
        if i > 0 && !ev.can_afford() {
            break;
        }
        let b = with_stones(board, stones)?;
        let e = ev.eval(&b, total - i);
        considered.push(Considered {
            label: label.clone(),
            stones: stones.clone(),
            black: e.black,
        });
        if best
            .as_ref()
            .is_none_or(|(_, be)| e.black.saturating_abs() < be.black.saturating_abs())
        {
            best = Some((i, e));
        }
    }
    let (i, e) = best.ok_or(OpeningError::BoardFull)?;
    Ok((Action::Stones(cands[i].1.clone()), e, considered))
}

/// Swap1's opener: the black stone (tried over one quarter of the board) closest to
/// balance.
pub(super) fn open_swap1(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let (w, h) = (board.width(), board.height());
    let mut pts: Vec<Pos> = Vec::new();
    for y in 0..h.div_ceil(2) {
        for x in 0..w.div_ceil(2) {
            if w != h || x <= y {
                pts.push(Pos::new(x, y));
            }
        }
    }
    // An even spread over the quarter, from the corner to the centre.
    let k = SWAP1_CANDIDATES.min(pts.len()).max(1);
    let step = pts.len().max(1) as f64 / k as f64;
    let chosen: Vec<Pos> = (0..k)
        .map(|i| pts[((i as f64 + 0.5) * step) as usize % pts.len()])
        .collect();
    pick_balanced(
        board,
        ev,
        chosen.iter().map(|p| (p.to_notation(), vec![*p])).collect(),
    )
}

/// Five-stone swap's opener: sampled positions of three black and two white stones near the
/// centre, the one closest to balance.
pub(super) fn open_swap5(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    open_swap5_like(board, ev, 5)
}

pub(super) fn open_swap5_like(
    board: &Board,
    ev: &mut Evaluator,
    stones: usize,
) -> Result<Outcome, OpeningError> {
    let (width, height) = (board.width(), board.height());
    let mut rng = SplitMix64::new(0x5eed_0000 + (width * 31 + height) as u64);
    let mut cands = Vec::new();
    let mut tries = 0;
    while cands.len() < SWAP5_CANDIDATES && tries < 200 {
        tries += 1;
        if let Some(s) = random_opening(&mut rng, width.min(height), board.rule(), stones, false) {
            if s.iter().all(|p| p.x() < width && p.y() < height) {
                let label = s
                    .iter()
                    .map(|p| p.to_notation())
                    .collect::<Vec<_>>()
                    .join(",");
                cands.push((label, s));
            }
        }
    }
    if cands.is_empty() {
        return Err(OpeningError::BoardFull);
    }
    pick_balanced(board, ev, cands)
}

/// A colour choice on `board` (searched for its side to move). `held` is the colour the
/// decider holds now; with `as_swap` the answer is [`Action::Swap`] (exchange or not), else
/// [`Action::Color`]. The decider takes the colour the search prefers, keeping `held` on 0.
pub(super) fn colour_choice(
    board: &Board,
    ev: &mut Evaluator,
    held: Color,
    as_swap: bool,
) -> Outcome {
    let e = ev.eval(board, 1);
    let other = held.opponent();
    let take = if e.for_color(other) > 0 { other } else { held };
    let action = if as_swap {
        Action::Swap(take != held)
    } else {
        Action::Color(take)
    };
    (action, e, Vec::new())
}

/// Black's fifth-move candidates on `board` (black to move): up to `want` moves, best first
/// for black, each legal as an offer and no two symmetric to each other. Uses up to two
/// multi-PV searches (the second skipping what the first found and its mirror images), then
/// fills up with unsearched points nearest the stones (scored below every searched one).
/// `parts` is the number of searches the caller still means to run, these included.
pub(super) fn fifth_candidates(
    board: &Board,
    ev: &mut Evaluator,
    want: usize,
    parts: usize,
) -> Vec<Candidate> {
    let syms = pattern_symmetries(&crate::opening::symmetry::stones_of(board));
    let mut out: Vec<Candidate> = Vec::new();
    let admit = |out: &mut Vec<Candidate>, c: Candidate, syms: &[PatternSymmetry]| {
        if out.len() < want
            && offer_ok(board, c.at)
            && !out.iter().any(|o| symmetric_points(syms, o.at, c.at))
        {
            out.push(c);
        }
    };
    let k = (want * syms.len().min(4) + 2).clamp(2, 24);
    let (_, first) = ev.candidates(board, k, Vec::new(), parts);
    for c in first {
        admit(&mut out, c, &syms);
    }
    if out.len() < want && ev.can_afford() {
        let excluded: Vec<Pos> = board
            .empty_points()
            .filter(|&p| {
                !offer_ok(board, p) || out.iter().any(|o| symmetric_points(&syms, o.at, p))
            })
            .collect();
        let (_, more) = ev.candidates(board, want - out.len() + 2, excluded, parts.max(2) - 1);
        for c in more {
            admit(&mut out, c, &syms);
        }
    }
    if out.len() < want {
        let floor = out.iter().map(|c| c.black).min().unwrap_or(0) - 1;
        let mut rest: Vec<Pos> = board.empty_points().collect();
        rest.sort_by_key(|&p| (nearest_stone(board, p).unwrap_or(0), p));
        for p in rest {
            admit(
                &mut out,
                Candidate {
                    at: p,
                    black: floor,
                    pv: vec![p],
                    depth: 0,
                },
                &syms,
            );
        }
    }
    out
}

/// Black's N offers: the N best candidates.
pub(super) fn offer(board: &Board, n: u8, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let n = n as usize;
    let cands = fifth_candidates(board, ev, n, 2);
    if cands.len() < n {
        return Err(OpeningError::BoardFull);
    }
    let considered = cands
        .iter()
        .map(|c| Considered {
            label: format!("offer {}", c.at),
            stones: vec![c.at],
            black: c.black,
        })
        .collect();
    // The evaluation behind the offers: the one white will take, the worst for black.
    let worst = cands.iter().min_by_key(|c| c.black).expect("n >= 1");
    let eval = Eval {
        black: worst.black,
        to_move: Some(Color::White),
        best: worst.pv.get(1).copied().unwrap_or(Pos::NONE),
        pv: worst.pv.clone(),
        depth: worst.depth,
        nodes: 0,
    };
    Ok((
        Action::Offers(cands.iter().map(|c| c.at).collect()),
        eval,
        considered,
    ))
}

/// White keeps the offer worst for black and plays move 6 in it.
pub(super) fn choose(
    board: &Board,
    offers: &[Pos],
    ev: &mut Evaluator,
) -> Result<Outcome, OpeningError> {
    let mut considered = Vec::new();
    let mut best: Option<(Pos, Eval)> = None;
    for (i, &p) in offers.iter().enumerate() {
        if !board.contains(p) || !board.is_empty(p) {
            continue;
        }
        if best.is_some() && !ev.can_afford() {
            // Out of time: the offers not searched are not kept.
            break;
        }
        let e = if board.forbidden(p).is_some() {
            // A forbidden offer loses for black at once: white keeps it.
            Eval {
                black: -WIN,
                to_move: Some(Color::White),
                best: Pos::NONE,
                pv: vec![p],
                depth: 0,
                nodes: 0,
            }
        } else if board.is_five(Color::Black, p) {
            Eval {
                black: WIN,
                to_move: Some(Color::White),
                best: Pos::NONE,
                pv: vec![p],
                depth: 0,
                nodes: 0,
            }
        } else {
            let mut b = board.clone();
            b.make(p);
            ev.eval(&b, offers.len() - i)
        };
        considered.push(Considered {
            label: format!("offer {}", p),
            stones: vec![p],
            black: e.black,
        });
        if best.as_ref().is_none_or(|(_, be)| e.black < be.black) {
            best = Some((p, e));
        }
    }
    let (fifth, e) = best.ok_or(OpeningError::BoardFull)?;
    let mut b = board.clone();
    b.make(fifth);
    let sixth = if e.best.is_none() && e.black <= -WIN + 1000 {
        Pos::NONE
    } else {
        legal(&b, e.best).unwrap_or(Pos::NONE)
    };
    Ok((Action::Choose { fifth, sixth }, e, considered))
}

/// Soosorv-8's move 4 and N: for each of the best few white moves, the value of black's N-th
/// best offer for N in 1..=8; the (move, N) closest to 0 (ties: the smaller N, the better
/// move).
pub(super) fn move4(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let parts = 1 + MOVE4_CANDIDATES;
    let (base, lines) = ev.candidates(board, 2 * MOVE4_CANDIDATES, Vec::new(), parts);
    // Mirror images of a move lead to mirror-image positions: keep one of each.
    let syms = pattern_symmetries(&crate::opening::symmetry::stones_of(board));
    let mut moves: Vec<Pos> = Vec::new();
    for c in lines {
        if moves.len() < MOVE4_CANDIDATES
            && board.is_empty(c.at)
            && !moves.iter().any(|&m| symmetric_points(&syms, m, c.at))
        {
            moves.push(c.at);
        }
    }
    if moves.is_empty() {
        moves.push(legal(board, base.best).ok_or(OpeningError::BoardFull)?);
    }
    let mut considered = Vec::new();
    let mut best: Option<(Pos, u8, Eval)> = None;
    let count = moves.len();
    for (i, &m4) in moves.iter().enumerate() {
        if i > 0 && !ev.can_afford() {
            break;
        }
        let mut b = board.clone();
        b.make(m4);
        let cands = fifth_candidates(&b, ev, MAX_OFFERS as usize, count - i);
        for (k, c) in cands.iter().enumerate() {
            let n = (k + 1) as u8;
            considered.push(Considered {
                label: format!("{} N={}", m4, n),
                stones: vec![m4, c.at],
                black: c.black,
            });
            if best
                .as_ref()
                .is_none_or(|(_, _, be)| c.black.saturating_abs() < be.black.saturating_abs())
            {
                best = Some((
                    m4,
                    n,
                    Eval {
                        black: c.black,
                        to_move: Some(Color::White),
                        best: c.pv.get(1).copied().unwrap_or(Pos::NONE),
                        pv: c.pv.clone(),
                        depth: c.depth,
                        nodes: 0,
                    },
                ));
            }
        }
    }
    let (at, n, e) = best.ok_or(OpeningError::BoardFull)?;
    Ok((Action::Move4 { at, n }, e, considered))
}

/// Soosorv-8's second swap: black after move 4 and N swaps when black's N-th best offer
/// (the one white would keep) leaves black worse.
pub(super) fn soosorv_swap2(
    board: &Board,
    n: u8,
    ev: &mut Evaluator,
) -> Result<Outcome, OpeningError> {
    let cands = fifth_candidates(board, ev, n as usize, 2);
    let worst = cands
        .iter()
        .min_by_key(|c| c.black)
        .ok_or(OpeningError::BoardFull)?;
    let e = Eval {
        black: worst.black,
        to_move: Some(Color::White),
        best: worst.pv.get(1).copied().unwrap_or(Pos::NONE),
        pv: worst.pv.clone(),
        depth: worst.depth,
        nodes: 0,
    };
    let considered = cands
        .iter()
        .map(|c| Considered {
            label: format!("offer {}", c.at),
            stones: vec![c.at],
            black: c.black,
        })
        .collect();
    Ok((Action::Swap(e.black < 0), e, considered))
}

/// Continuous swap: one stone (the best move), or two (ours, then a stone of the other
/// colour chosen so that the position is closest to balance) when the opponent's colour
/// choice after them leaves us more than the best single stone does. The other colour's
/// stone is chosen among its best moves and two quiet points away from the stones (a weak
/// stone is what balances a strong one).
pub(super) fn place(board: &Board, ev: &mut Evaluator) -> Result<Outcome, OpeningError> {
    let me = board.side_to_move();
    let pairs = 2usize;
    let per_pair = 3usize;
    let (base, firsts) = ev.candidates(board, pairs, Vec::new(), 1 + pairs * per_pair);
    let single = firsts
        .first()
        .cloned()
        .or_else(|| {
            legal(board, base.best).map(|p| Candidate {
                at: p,
                black: base.black,
                pv: vec![p],
                depth: base.depth,
            })
        })
        .ok_or(OpeningError::BoardFull)?;
    let sign = if me == Color::Black { 1 } else { -1 };
    let single_value = single.black * sign;
    let mut considered = vec![Considered {
        label: format!("one stone {}", single.at),
        stones: vec![single.at],
        black: single.black,
    }];
    let mut best_pair: Option<(Pos, Pos, Candidate)> = None;
    if board.empty_points().count() >= 2 {
        let firsts: Vec<Candidate> = firsts.into_iter().take(pairs).collect();
        let count = firsts.len();
        for (i, c) in firsts.iter().enumerate() {
            if !ev.can_afford() {
                break;
            }
            let mut b = board.clone();
            b.make(c.at);
            let left = (count - i) * per_pair;
            let (_, mut replies) = ev.candidates(&b, 4, Vec::new(), left);
            for (j, q) in quiet_points(&b, 2).into_iter().enumerate() {
                if !ev.can_afford() {
                    break;
                }
                let mut bq = b.clone();
                bq.make(q);
                let e = ev.eval(&bq, left - 1 - j);
                replies.push(Candidate {
                    at: q,
                    black: e.black,
                    pv: std::iter::once(q).chain(e.pv.iter().copied()).collect(),
                    depth: e.depth,
                });
            }
            if let Some(r) = replies.iter().min_by_key(|r| r.black.saturating_abs()) {
                considered.push(Considered {
                    label: format!("two stones {} {}", c.at, r.at),
                    stones: vec![c.at, r.at],
                    black: r.black,
                });
                if best_pair
                    .as_ref()
                    .is_none_or(|(_, _, bp)| r.black.saturating_abs() < bp.black.saturating_abs())
                {
                    best_pair = Some((c.at, r.at, r.clone()));
                }
            }
        }
    }
    let eval_of = |c: &Candidate, to_move: Color| Eval {
        black: c.black,
        to_move: Some(to_move),
        best: c.pv.get(1).copied().unwrap_or(Pos::NONE),
        pv: c.pv.clone(),
        depth: c.depth,
        nodes: 0,
    };
    if let Some((a, b, r)) = best_pair {
        // After two stones the opponent takes the better colour: we keep -|score|.
        if -r.black.saturating_abs() > single_value {
            return Ok((Action::Stones(vec![a, b]), eval_of(&r, me), considered));
        }
    }
    Ok((
        Action::Stones(vec![single.at]),
        eval_of(&single, me.opponent()),
        considered,
    ))
}

/// The Chebyshev distance from `p` to the nearest stone; `None` on an empty board.
fn nearest_stone(board: &Board, p: Pos) -> Option<i32> {
    board.moves().iter().map(|&q| p.chebyshev(q)).min()
}

/// Up to `k` empty points as far from every stone as possible up to 4 points (Chebyshev),
/// nearest the centre first, the second one on the other side of the centre from the first.
pub(super) fn quiet_points(board: &Board, k: usize) -> Vec<Pos> {
    let dist = |p: Pos| nearest_stone(board, p).unwrap_or(4).min(4);
    let (cx, cy) = (board.width() as i32 / 2, board.height() as i32 / 2);
    let centre = |p: Pos| (p.x() as i32 - cx).abs() + (p.y() as i32 - cy).abs();
    let mut pts: Vec<Pos> = board.empty_points().collect();
    pts.sort_by_key(|&p| (-dist(p), centre(p), p));
    let Some(&first) = pts.first() else {
        return Vec::new();
    };
    let mut out = vec![first];
    let far = dist(first);
    let opposite = |p: Pos| {
        (p.x() as i32 - cx) * (first.x() as i32 - cx)
            + (p.y() as i32 - cy) * (first.y() as i32 - cy)
    };
    if let Some(&second) = pts
        .iter()
        .filter(|&&p| p != first && dist(p) == far)
        .min_by_key(|&&p| (opposite(p), centre(p), p))
    {
        out.push(second);
    }
    out.truncate(k);
    out
}
