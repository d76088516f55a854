//! Complete self-play games through the protocol: two processes of the built engine play
//! freestyle 20x20, standard 15x15, renju 15x15 and caro 15x15 at a small time budget. The
//! test referees with the project's rules: every move is a legal empty point, black never
//! plays a forbidden point in renju, and each game ends with a five for the side that made it
//! (or a draw on a full board).
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;
use tianyuan::board::{Board, GameResult};
use tianyuan::core::{Color, Pos, Rule};

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(size: usize, rule: Rule) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            input,
            lines,
        };
        e.send(&format!("START {}", size));
        assert_eq!(e.reply(), "OK");
        e.send(&format!("INFO rule {}", rule.gomocup_value()));
        e.send("INFO timeout_turn 150");
        e.send("INFO timeout_match 100000");
        e.send("INFO max_memory 104857600");
        e.send("INFO thread_num 1");
        e
    }
    fn send(&mut self, s: &str) {
        writeln!(self.input, "{}", s).unwrap();
        self.input.flush().unwrap();
    }
    /// The next line that is not a MESSAGE/DEBUG line.
    fn reply(&mut self) -> String {
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .expect("engine reply");
            if l.starts_with("MESSAGE ") || l.starts_with("DEBUG ") {
                continue;
            }
            return l;
        }
    }
    fn move_reply(&mut self, size: usize) -> Pos {
        let l = self.reply();
        let (x, y) = l
            .split_once(',')
            .unwrap_or_else(|| panic!("not a move line: {:?}", l));
        let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(x < size && y < size, "off-board move {}", l);
        Pos::new(x, y)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "END");
        let _ = self.input.flush();
        std::thread::sleep(Duration::from_millis(50));
        let _ = self.child.kill();
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        assert!(
            err.is_empty() || std::thread::panicking(),
            "stderr: {}",
            err
        );
    }
}

fn play(rule: Rule, size: usize, opening: &[(usize, usize)]) -> (Board, Option<GameResult>) {
    let mut board = Board::new(size, size, rule).unwrap();
    let mut engines = [Engine::start(size, rule), Engine::start(size, rule)];
    for &(x, y) in opening {
        board.make(Pos::new(x, y));
    }
    // Engine 0 moves next; both get the opening by BOARD (field 1 = own stones).
    let mut first = [true, true];
    let mut last = Pos::NONE;
    for turn in 0..(size * size) {
        let k = turn % 2;
        let e = &mut engines[k];
        if first[k] {
            first[k] = false;
            e.send("BOARD");
            let me = board.side_to_move();
            for (i, &p) in board.moves().iter().enumerate() {
                let c = board.move_colors()[i];
                e.send(&format!(
                    "{},{},{}",
                    p.x(),
                    p.y(),
                    if c == me { 1 } else { 2 }
                ));
            }
            e.send("DONE");
        } else {
            e.send(&format!("TURN {},{}", last.x(), last.y()));
        }
        let p = e.move_reply(size);
        assert!(
            board.is_empty(p),
            "{:?}: occupied move {} in\n{}",
            rule,
            p,
            board.render(&[])
        );
        let mover = board.side_to_move();
        if rule == Rule::Renju && mover == Color::Black {
            assert_eq!(
                board.forbidden(p),
                None,
                "black played a forbidden point {}\n{}",
                p,
                board.render(&[])
            );
        }
        let result = board.result_of_move(p);
        board.make(p);
        last = p;
        if let Some(r) = result {
            return (board, Some(r));
        }
    }
    (board, None)
}

fn check_game(rule: Rule, size: usize) {
    let c = size / 2;
    let (board, result) = play(rule, size, &[(c, c), (c, c + 1), (c + 1, c + 1)]);
    match result {
        Some(GameResult::Win(color)) => {
            // The winner made the last move, and it was a five under the rule.
            assert_eq!(board.move_colors().last(), Some(&color));
            assert_eq!(
                board.last_move_won(),
                Some(color),
                "{:?}\n{}",
                rule,
                board.render(&[])
            );
        }
        Some(GameResult::Draw) => assert!(board.is_full()),
        None => panic!("game did not end"),
    }
}

#[test]
fn selfplay_freestyle_20() {
    check_game(Rule::Freestyle, 20);
}

#[test]
fn selfplay_standard_15() {
    check_game(Rule::Standard, 15);
}

#[test]
fn selfplay_renju_15() {
    check_game(Rule::Renju, 15);
}

#[test]
fn selfplay_caro_15() {
    check_game(Rule::Caro, 15);
}
