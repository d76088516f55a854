//! The match runner shared by both variants: it asks the engines' names, runs the worker
//! threads that take games from one queue, keeps each worker's engine processes, collects
//! the finished games in schedule order and shows progress. What a game is (who sits where,
//! how it is played, judged, counted and written) is the [`Referee`]'s business: the
//! two-colour referee lives in [`super`], the four-colour one in [`super::fourcolour`].

use super::player::{EngineSpec, Player, PlayerError};
use super::{interrupted, ArenaError, MatchConfig};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the runner needs from a variant. Games are numbered `0..games()` in schedule order;
/// a game has one seat per engine process it needs (an engine may sit in several seats).
pub(crate) trait Referee: Sync {
    /// One finished game.
    type Record: Send;
    /// The results so far, updated by the workers as each game ends.
    type Tally: Send;

    /// Engines, clock, concurrency, output directory and process policy.
    fn config(&self) -> &MatchConfig;
    /// Number of games to play.
    fn games(&self) -> usize;
    /// The engine (index into the configuration's engines) in each seat of game `game`.
    fn seats(&self, game: usize) -> Vec<usize>;
    /// Whether every game gets fresh processes (started for it and ended after it), whatever
    /// `--restart-each-game` says.
    fn fresh_processes(&self) -> bool {
        false
    }
    /// Called once the engines' names are known, before the first game (a shard opens its
    /// log here). An error ends the match before it starts.
    fn begin(&self, _names: &[String]) -> Result<(), ArenaError> {
        Ok(())
    }
    /// The line printed before the first game; `workers` is the number of worker threads.
    fn header(&self, names: &[String], workers: usize) -> String;
    /// Plays game `game` with `players[s]` in seat `s`.
    fn play(&self, game: usize, players: &mut [&mut Player]) -> Self::Record;
    /// The record of a game that could not start: the process of `seat` could not be
    /// started (`detail` says why); that seat loses.
    fn unplayed(&self, game: usize, seat: usize, detail: String) -> Self::Record;
    /// The seat that forfeited, whose process is killed and started afresh for its next game.
    fn forfeit_seat(&self, game: usize, rec: &Self::Record) -> Option<usize>;
    /// Counts a finished game: `None` when it does not count (the match was interrupted),
    /// else `Some` of a line to print when this game decided the match (which then stops:
    /// no game starts after it).
    fn add(
        &self,
        tally: &mut Self::Tally,
        game: usize,
        rec: &Self::Record,
    ) -> Option<Option<String>>;
    /// The `Finished game N (...): result` line.
    fn finished_line(&self, names: &[String], game: usize, rec: &Self::Record) -> String;
    /// The progress bar's message (the score so far).
    fn progress(&self, _names: &[String], _tally: &Self::Tally) -> String {
        String::new()
    }
    /// Writes a finished game's files; called in order of finishing, on the collecting
    /// thread. An error stops the match (games running finish, none starts).
    fn keep(&self, names: &[String], game: usize, rec: &Self::Record) -> Result<(), ArenaError>;
}

/// What the runner hands back to the variant for its summary.
pub(crate) struct Played<R: Referee> {
    /// Engine names (from `--name`, `ABOUT`, or the executable's name), made distinct.
    pub names: Vec<String>,
    /// The final tally.
    pub tally: R::Tally,
    /// Every counted game by its number (`None`: not played or not counted).
    pub games: Vec<Option<R::Record>>,
    /// Whether Ctrl-C stopped the match.
    pub interrupted: bool,
    /// The first error writing a game's files.
    pub write_error: Option<ArenaError>,
}

/// A finished game as the workers report it.
struct Finished<T> {
    game: usize,
    record: T,
    /// The line to print when this game decided the match.
    decided: Option<String>,
    /// Whether the tally counted it (not after an interruption).
    counted: bool,
}

struct Shared<'r, R: Referee> {
    referee: &'r R,
    specs: Vec<Arc<EngineSpec>>,
    next: AtomicUsize,
    stop: AtomicBool,
    tally: Mutex<R::Tally>,
    /// The processes started to ask the engines' names, until a worker takes them.
    spares: Mutex<Vec<Option<Player>>>,
}

/// Plays every game of `referee` in `--concurrency` worker threads, printing the header,
/// one line per finished game and (on a terminal) a progress bar on stdout.
///
/// Errors: [`ArenaError::Io`] if the output directory cannot be made;
/// [`ArenaError::Player`] if an engine cannot be started to ask its name. Errors writing a
/// game's files come back in [`Played::write_error`].
pub(crate) fn run_games<R: Referee>(referee: &R, tally: R::Tally) -> Result<Played<R>, ArenaError> {
    let cfg = referee.config();
    if let Some(dir) = &cfg.out {
        std::fs::create_dir_all(dir).map_err(|source| ArenaError::Io {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let specs: Vec<Arc<EngineSpec>> = cfg.engines.iter().cloned().map(Arc::new).collect();
    let (mut names, spares) = probe_names(&specs, cfg)?;
    distinguish_names(&mut names);
    referee.begin(&names)?;
    let total = referee.games();
    let workers = cfg.concurrency.min(total).max(1);
    let shared = Shared {
        referee,
        specs,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        tally: Mutex::new(tally),
        spares: Mutex::new(spares),
    };

    let bar = std::io::stdout().is_terminal().then(|| {
        let pb = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stdout());
        if let Ok(style) =
            ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}")
        {
            pb.set_style(style);
        }
        pb
    });
    let say = |line: &str| match &bar {
        Some(pb) => pb.println(line),
        None => println!("{line}"),
    };
    say(&referee.header(&names, workers));

    let mut games: Vec<Option<R::Record>> = (0..total).map(|_| None).collect();
    let mut write_error = None;
    let mut was_interrupted = false;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished<R::Record>>();
        for w in 0..workers {
            let sh = &shared;
            let tx = tx.clone();
            std::thread::Builder::new()
                .name(format!("arena-worker-{w}"))
                .spawn_scoped(scope, move || worker(sh, w, tx))
                .expect("spawn worker thread");
        }
        drop(tx);
        loop {
            // After Ctrl-C the workers end their games at once (their engines' replies are
            // no longer awaited), report them uncounted and find the queue closed.
            if !was_interrupted && interrupted() {
                was_interrupted = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
            let fin = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(fin) if fin.counted => fin,
                Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            say(&referee.finished_line(&names, fin.game, &fin.record));
            if let Err(e) = referee.keep(&names, fin.game, &fin.record) {
                write_error.get_or_insert(e);
                shared.stop.store(true, Ordering::SeqCst);
            }
            if let Some(pb) = &bar {
                pb.inc(1);
                let t = shared.tally.lock().unwrap_or_else(|e| e.into_inner());
                pb.set_message(referee.progress(&names, &t));
            }
            if let Some(text) = &fin.decided {
                say(text);
            }
            games[fin.game] = Some(fin.record);
        }
    });
    let grace = Duration::from_millis(cfg.game.tolerance_ms);
    let unused: Vec<Player> = shared
        .spares
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain(..)
        .flatten()
        .collect();
    for p in unused {
        p.end(grace);
    }
    if let Some(pb) = &bar {
        pb.finish_and_clear();
    }
    Ok(Played {
        names,
        tally: shared.tally.into_inner().unwrap_or_else(|e| e.into_inner()),
        games,
        interrupted: was_interrupted,
        write_error,
    })
}

/// Starts each engine (in parallel) to ask its name (`ABOUT`, unless `--name` gave one) and
/// to fail early on a command that cannot be started. An engine that does not answer gets its
/// executable's name. The processes are returned for the first games to use.
fn probe_names(
    specs: &[Arc<EngineSpec>],
    cfg: &MatchConfig,
) -> Result<(Vec<String>, Vec<Option<Player>>), ArenaError> {
    let timeout = Duration::from_millis(cfg.game.start_timeout_ms);
    let probed: Vec<Result<(String, Player), PlayerError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = specs
            .iter()
            .map(|spec| {
                scope.spawn(move || {
                    let mut p = Player::spawn(Arc::clone(spec))?;
                    let name = match &spec.name {
                        Some(n) => n.clone(),
                        None => p.about(timeout).unwrap_or_else(|| spec.exe_name()),
                    };
                    Ok((name, p))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("probe thread"))
            .collect()
    });
    let mut names = Vec::new();
    let mut players = Vec::new();
    for r in probed {
        let (name, p) = r?;
        names.push(name);
        players.push(Some(p));
    }
    Ok((names, players))
}

/// Makes equal engine names distinct by appending the engine number (`Tianyuan-1`,
/// `Tianyuan-2`), so that a self-play match without `--name` still says who is who.
pub fn distinguish_names(names: &mut [String]) {
    let original = names.to_vec();
    for (i, n) in names.iter_mut().enumerate() {
        if original.iter().filter(|m| *m == n).count() > 1 {
            *n = format!("{n}-{}", i + 1);
        }
    }
}

/// A worker thread: takes games from the queue until it is empty or the match stops. It
/// keeps a pool of live processes per engine and gives each seat one of them (a spare from
/// the name probe, or a new one). Under the judge's conditions worker `w` pins its engines
/// to one CPU of its own ([`super::judge::cpu_for_worker`]).
fn worker<R: Referee>(sh: &Shared<R>, w: usize, tx: mpsc::Sender<Finished<R::Record>>) {
    let referee = sh.referee;
    let cfg = referee.config();
    let grace = Duration::from_millis(cfg.game.tolerance_ms);
    let restart = cfg.restart_each_game || referee.fresh_processes();
    let mut pool: Vec<Vec<Player>> = (0..sh.specs.len()).map(|_| Vec::new()).collect();
    while !sh.stop.load(Ordering::SeqCst) {
        let game = sh.next.fetch_add(1, Ordering::SeqCst);
        if game >= referee.games() {
            break;
        }
        let seats = referee.seats(game);
        // Take a live process for every seat (a dead one is dropped and replaced).
        let mut seated: Vec<Player> = Vec::with_capacity(seats.len());
        let mut spawn_failure = None;
        for (seat, &e) in seats.iter().enumerate() {
            let p = take_live(&mut pool[e]).or_else(|| {
                let spare = sh.spares.lock().unwrap_or_else(|x| x.into_inner())[e].take();
                spare.and_then(|mut p| (!p.is_dead()).then_some(p))
            });
            match p.map_or_else(|| Player::spawn(Arc::clone(&sh.specs[e])), Ok) {
                Ok(p) => seated.push(p),
                Err(err) => {
                    spawn_failure = Some((seat, err.to_string()));
                    break;
                }
            }
        }
        let record = match spawn_failure {
            Some((seat, detail)) => referee.unplayed(game, seat, detail),
            None => {
                if cfg.game.judge {
                    pin(&seated, super::judge::cpu_for_worker(w));
                }
                let mut refs: Vec<&mut Player> = seated.iter_mut().collect();
                referee.play(game, &mut refs)
            }
        };
        // A seat that forfeited has its process killed; the others go back to the pool.
        let forfeit = referee.forfeit_seat(game, &record);
        for (seat, mut p) in seated.into_iter().enumerate() {
            if Some(seat) == forfeit {
                p.kill();
            } else if restart {
                p.end(grace);
            } else {
                pool[seats[seat]].push(p);
            }
        }
        let added = referee.add(
            &mut sh.tally.lock().unwrap_or_else(|e| e.into_inner()),
            game,
            &record,
        );
        let counted = added.is_some();
        let decided = added.flatten();
        if decided.is_some() || !counted {
            sh.stop.store(true, Ordering::SeqCst);
        }
        let fin = Finished {
            game,
            record,
            decided,
            counted,
        };
        if tx.send(fin).is_err() {
            break;
        }
    }
    for p in pool.into_iter().flatten() {
        p.end(grace);
    }
}

/// Pins every thread of the players' processes to `cpu` (the judge's conditions); a failure
/// is reported on stderr and the game is played unpinned.
fn pin(players: &[Player], cpu: usize) {
    for p in players.iter() {
        if let Err(e) = super::judge::pin_tree(p.pid(), cpu) {
            eprintln!(
                "match: --judge-conditions: cannot pin {} to CPU {cpu}: {e}",
                p.spec().command
            );
        }
    }
}

/// A live process from the pool, dropping (reaping) dead ones.
fn take_live(pool: &mut Vec<Player>) -> Option<Player> {
    while let Some(mut p) = pool.pop() {
        if !p.is_dead() {
            return Some(p);
        }
        p.kill();
    }
    None
}
