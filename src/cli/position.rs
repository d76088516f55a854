//! How every tool reads a position ([`PositionArgs`]: rule, size, moves, a game file or
//! stone sets, into a [`Setup`]) and draws it ([`PictureArgs`]: the text diagram and the SVG
//! file).

use super::*;

/// A position given on the command line: a rule, a board, and either moves (`--moves`, or a
/// game file with `--file`, cut at `--ply`) or stone sets (`--black`/`--white`).
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// Rule: freestyle (0), standard (1), renju (4), caro (8) or caro-exact (9) [default:
    /// the rule the --file names (SGF RU, our psq and move-list rule lines), else renju].
    #[arg(long)]
    pub rule: Option<String>,
    /// Board size: N (N x N) or WxH (15x20: 15 columns, 20 rows), each side 5..=22 [default:
    /// the size in --file, else 15].
    #[arg(long)]
    pub size: Option<String>,
    /// Moves played alternately from black: notation (h8,h9,i10) or protocol points
    /// separated by spaces (7,7 7,8 8,9), or a mix.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// A game to read the moves from: a Piskvork .psq record, an SGF record, or a text file
    /// of moves (notation or x,y points).
    #[arg(long, value_name = "GAME")]
    pub file: Option<PathBuf>,
    /// Keep only the first K moves of --file or --moves (the position after move K).
    #[arg(long, value_name = "K")]
    pub ply: Option<usize>,
    /// Black stones as a set (comma-separated notation; "-" for none).
    #[arg(long, allow_hyphen_values = true)]
    pub black: Option<String>,
    /// White stones as a set (comma-separated notation; "-" for none).
    #[arg(long, allow_hyphen_values = true)]
    pub white: Option<String>,
    /// Side to move with --black/--white (default: black if the counts are equal, white if
    /// black has one more; other counts need --to-move, as a puzzle position).
    #[arg(long)]
    pub to_move: Option<String>,
}

/// A position as [`PositionArgs::setup`] reads it, before it is put on a board.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The rule.
    pub rule: Rule,
    /// Board `(width, height)` in points.
    pub size: (usize, usize),
    /// Moves in play order from black (empty when stone sets are given).
    pub moves: Vec<Pos>,
    /// Stone sets and the side to move, when given with `--black`/`--white`.
    pub stones: Option<(Vec<Pos>, Vec<Pos>, Color)>,
    /// Players' names from the game file, if it names them.
    pub names: (Option<String>, Option<String>),
    /// Set when the rule is [`DEFAULT_RULE`] because the game file names none and no
    /// `--rule` was given: a sentence saying so, for the tool's output (issue 34); also
    /// when the game file holds no moves (issue 51).
    pub rule_note: Option<String>,
    /// The game file the moves come from (quoted for messages), if any: errors about its
    /// moves name it.
    pub source: Option<String>,
}

/// A position put on a board, with how the game ended if it has ended
/// ([`Setup::position`]).
#[derive(Clone)]
pub struct Position {
    /// The board after the moves (or with the stone sets).
    pub board: Board,
    /// How the game ended (docs/rules.md §4): judged move by move for moves, by a five on
    /// the board or a full board for stone sets (whose order is unknown, so a foul cannot be
    /// told).
    pub end: Option<GameEnd>,
}

impl Position {
    /// The result for people when the game is over: `white wins: black's move 9 (h9) is a
    /// double three, ...`, `black has a five`, `the board is full`.
    pub fn over(&self) -> Option<String> {
        if let Some(end) = self.end {
            return Some(end.describe(self.board.rule()));
        }
        game_over_reason(&self.board)
    }

    /// The board, if the side to move can still play.
    ///
    /// Errors: `the game is over: <why>` (a five, black's foul, a full board), for the tools
    /// and routes that analyse a position.
    pub fn playable(self) -> Result<Board, String> {
        match self.over() {
            Some(why) => Err(format!("the game is over: {why}")),
            None => Ok(self.board),
        }
    }
}

impl Setup {
    /// Puts the position on a board and judges it (docs/rules.md §4, [`replay`]).
    ///
    /// Errors: a one-line reason naming the occupied or off-board point, or the move that
    /// comes after the end of the game (a stone after a five or after black's foul).
    pub fn position(&self) -> Result<Position, String> {
        let (w, h) = self.size;
        match &self.stones {
            Some((black, white, to_move)) => {
                Board::from_stones_to_move(w, h, self.rule, black, white, *to_move)
                    .map(|board| Position { board, end: None })
                    .map_err(|e| e.to_string())
            }
            None => replay(w, h, self.rule, &self.moves)
                .map(|r| Position {
                    board: r.board,
                    end: r.end,
                })
                .map_err(|e| match &self.source {
                    Some(file) => format!("{file}: {e}"),
                    None => e.to_string(),
                }),
        }
    }

    /// Puts the position on a board (see [`Setup::position`]; a game that has ended is
    /// returned as it stands).
    ///
    /// Errors: as [`Setup::position`].
    pub fn board(&self) -> Result<Board, String> {
        self.position().map(|p| p.board)
    }
}

impl PositionArgs {
    /// Reads the rule, the board size and the moves or stones, without building the board.
    ///
    /// Errors: a one-line reason (bad rule, size, point or file; more than one source of
    /// stones; `--ply` beyond the game; a game file for another board than `--size`).
    pub fn setup(&self) -> Result<Setup, String> {
        let given_size = match &self.size {
            Some(s) => Some(parse_size(s).map_err(|e| e.to_string())?),
            None => None,
        };
        let mut rule = match &self.rule {
            Some(r) => Some(Rule::parse_explained(r)?),
            None => None,
        };
        let sources = [self.moves.is_some(), self.file.is_some()]
            .iter()
            .filter(|&&b| b)
            .count()
            + usize::from(self.black.is_some() || self.white.is_some());
        if sources > 1 {
            return Err("give one of --moves, --file or --black/--white".into());
        }
        if self.to_move.is_some() && self.black.is_none() && self.white.is_none() {
            return Err("--to-move goes with --black/--white".into());
        }
        if self.ply.is_some() && self.moves.is_none() && self.file.is_none() {
            return Err("--ply goes with --moves or --file".into());
        }
        let mut size = given_size.unwrap_or((DEFAULT_SIZE, DEFAULT_SIZE));
        let mut moves = Vec::new();
        let mut stones = None;
        let mut names = (None, None);
        let mut rule_note = None;
        if let Some(path) = &self.file {
            let game = read_game(path, size).map_err(|e| e.to_string())?;
            if let Some(file_size) = game.size {
                if given_size.is_some_and(|g| g != file_size) {
                    return Err(format!(
                        "{} is a game on {}x{} but --size says {}x{}",
                        quote_path(path),
                        file_size.0,
                        file_size.1,
                        size.0,
                        size.1
                    ));
                }
                size = file_size;
            }
            if rule.is_none() {
                rule = game.rule;
                if rule.is_none() {
                    rule_note = Some(format!(
                        "{} names no rule: using the default, {} (--rule to choose)",
                        quote_path(path),
                        DEFAULT_RULE
                    ));
                }
            }
            if game.moves.is_empty() {
                let empty = format!("{} holds no moves: the empty board", quote_path(path));
                rule_note = Some(match rule_note {
                    Some(n) => format!("{n}; {empty}"),
                    None => empty,
                });
            }
            moves = game.moves;
            names = (game.black, game.white);
        } else if let Some(m) = &self.moves {
            moves = parse_move_text(m, size.0, size.1).map_err(|e| e.to_string())?;
        } else if self.black.is_some() || self.white.is_some() {
            let (w, h) = size;
            let black = parse_point_list(self.black.as_deref().unwrap_or("-"), w, h)
                .map_err(|e| e.to_string())?;
            let white = parse_point_list(self.white.as_deref().unwrap_or("-"), w, h)
                .map_err(|e| e.to_string())?;
            let to_move = match &self.to_move {
                Some(s) => Color::parse(s)
                    .ok_or_else(|| format!("bad --to-move '{}': black or white", excerpt(s)))?,
                None if black.len() == white.len() + 1 => Color::White,
                None if black.len() == white.len() => Color::Black,
                None => {
                    return Err(format!(
                        "{} black and {} white stones: no game has these counts (black has \
                         as many as white or one more); give --to-move for a puzzle position",
                        black.len(),
                        white.len()
                    ))
                }
            };
            stones = Some((black, white, to_move));
        }
        if let Some(k) = self.ply {
            if k > moves.len() {
                return Err(format!(
                    "--ply {k}: the game has only {} moves",
                    moves.len()
                ));
            }
            moves.truncate(k);
        }
        Ok(Setup {
            rule: rule.unwrap_or(DEFAULT_RULE),
            size,
            moves,
            stones,
            names,
            rule_note,
            source: self.file.as_deref().map(quote_path),
        })
    }

    /// Builds the board.
    ///
    /// Errors: a one-line reason (bad rule, size, point, file, occupied point, missing
    /// stones, a stone after the end of the game).
    pub fn board(&self) -> Result<Board, String> {
        self.setup()?.board()
    }
}

/// Pictures of the position a tool looked at.
#[derive(Args, Debug, Clone, Default)]
pub struct PictureArgs {
    /// Print a diagram of the board (row 1 at the top unless --orientation book; not with
    /// --json).
    #[arg(long)]
    pub board: bool,
    /// Write an SVG picture of the position to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Which way up --board and --svg draw the board: screen (row 1 at the top, as Piskvork
    /// and SGF viewers) or book (row 1 at the bottom, as renju books); the notation is the
    /// same either way (docs/rules.md §1).
    #[arg(long, value_enum, default_value_t = Orientation::Screen)]
    pub orientation: Orientation,
}

impl PictureArgs {
    /// Checks the flags against `--json`.
    ///
    /// Errors: `--board` with `--json` (the JSON output is one object and nothing else).
    pub fn check(&self, json: bool) -> Result<(), String> {
        if self.board && json {
            return Err("--board prints a diagram, which --json leaves no room for".into());
        }
        Ok(())
    }

    /// Prints the diagram (with `--board`) and writes the SVG (with `--svg`), both drawn in
    /// `--orientation` (whatever `marks` says).
    ///
    /// Errors: the SVG file cannot be written.
    pub fn draw(&self, board: &Board, marks: &Marks) -> Result<(), String> {
        let marks = &Marks {
            orientation: self.orientation,
            ..marks.clone()
        };
        if self.board {
            print!("{}", diagram(board, marks, stdout_wants_color()));
        }
        if let Some(path) = &self.svg {
            write_text(path, &to_svg(board, marks))?;
        }
        Ok(())
    }
}

/// Writes `text` to `path`.
///
/// Errors: a one-line reason naming the file.
pub fn write_text(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A one-line description of a position for captions: rule, size, moves and side to move.
pub fn position_caption(board: &Board) -> String {
    format!(
        "{} {}x{}, {} stones, {} to move",
        board.rule(),
        board.width(),
        board.height(),
        board.stone_count(),
        board.side_to_move().name()
    )
}
