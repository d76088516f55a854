//! The web board: `pbrain-tianyuan serve`, a local HTTP server that serves one page (a board
//! to play and analyse on) and a small JSON API over the engine facade.
//!
//! - The page (`web/index.html`, `web/style.css`, `web/app.js` in the repository) is embedded
//!   in the binary; the server reads no file at run time.
//! - The API ([`api`]) takes positions with the fields and meanings of the command-line tools
//!   (`rule`, `size`, `moves` or `black`/`white`/`to_move`) and answers with the same JSON
//!   objects as `analyze --json`, `forbidden --json` and `solve --json`; errors are
//!   `{"error":"reason"}` with a 4xx status.
//! - Safety: one search at a time (a second one gets 429 at once), every request's time,
//!   depth, multi-PV, threads and memory bounded by the server's limits ([`ServerLimits`]),
//!   request bodies at most [`MAX_BODY_BYTES`] read within [`BODY_TIMEOUT`], and a clean
//!   shutdown on Ctrl-C (or SIGTERM) that stops the running search.
//!
//! Layering: this module sits beside [`crate::cli`] and uses only the engine facade, the
//! board, the threat solver's entry point and the CLI's position reader and JSON writers.

pub mod api;

use crate::engine::{Engine, Options};
use clap::Args;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Largest request body the API reads, in bytes (64 KiB: a 22x22 game in notation is under
/// 2 KiB).
pub const MAX_BODY_BYTES: usize = 64 << 10;

/// Default time allowed for reading a request body; a client that sends less than it
/// announced gets 408 after this.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Memory the threat solvers of one `POST /api/solve` may use together, in bytes (256 MiB).
pub const SOLVE_MEMORY_BYTES: usize = 256 << 20;

/// Time the server gives running requests to finish after Ctrl-C before it exits anyway.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Arguments of `pbrain-tianyuan serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// TCP port to listen on (0: any free port; the address is printed on start).
    #[arg(long, default_value_t = 8015)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; 0.0.0.0 would open the
    /// engine to the whole network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Search threads, the most any request may use, at least 1 (default: all cores; capped
    /// at the hardware threads).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB (1..=65536), allocated once and shared by all
    /// searches.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// The longest search or solve a request may ask for, in milliseconds (100..=3600000).
    #[arg(long, default_value_t = 60_000)]
    pub max_time_ms: u64,
    /// Time allowed for reading a request body, in milliseconds (for tests).
    #[arg(long, default_value_t = BODY_TIMEOUT.as_millis() as u64, hide = true)]
    pub body_timeout_ms: u64,
}

/// What bounds every request, whatever it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// Longest search or solve in milliseconds; a depth-limited search without `time_ms`
    /// gets this as its time limit.
    pub max_time_ms: u64,
    /// Most search threads a request may use (at least 1).
    pub threads: usize,
    /// Transposition table size in bytes.
    pub hash_bytes: usize,
    /// Memory cap of the threat solvers of one solve, in bytes.
    pub solve_memory_bytes: usize,
    /// Time allowed for reading a request body.
    pub body_timeout: Duration,
}

impl ServerLimits {
    /// The limits `serve` runs with for `args`.
    ///
    /// Errors: a one-line reason for a `--max-time-ms`, `--hash-mb` or `--threads` out of
    /// range (the last two checked as every tool checks them, [`crate::cli::check_threads`]).
    pub fn from_args(args: &ServeArgs) -> Result<ServerLimits, String> {
        if !(100..=3_600_000).contains(&args.max_time_ms) {
            return Err("--max-time-ms must be 100..=3600000".into());
        }
        let hash_bytes = crate::cli::check_hash_mb("--hash-mb", args.hash_mb)?;
        let threads =
            crate::cli::check_threads("--threads", args.threads, crate::engine::max_threads())?;
        Ok(ServerLimits {
            max_time_ms: args.max_time_ms,
            threads,
            hash_bytes,
            solve_memory_bytes: SOLVE_MEMORY_BYTES,
            body_timeout: Duration::from_millis(args.body_timeout_ms.clamp(1, 600_000)),
        })
    }
}

/// The server's shared state: the engine, the one search slot and the limits.
pub struct AppState {
    /// The engine; locked only by the request holding the search slot.
    engine: Mutex<Engine>,
    /// One permit: the search (or solve) running now.
    slot: Arc<tokio::sync::Semaphore>,
    /// The id and the stop flag of the running search, if any (for `POST /api/stop` and
    /// shutdown).
    current: Mutex<Option<(u64, Arc<AtomicBool>)>>,
    /// The id of the next search (1, 2, ...).
    next_id: AtomicU64,
    /// Raised on Ctrl-C: new searches are refused with 503.
    shutting_down: AtomicBool,
    /// The bounds of every request.
    limits: ServerLimits,
}

impl AppState {
    /// A state with a fresh engine sized by `limits` (allocates and prefaults the
    /// transposition table).
    pub fn new(limits: ServerLimits) -> AppState {
        let mut engine = Engine::new(Options {
            threads: limits.threads,
            hash_bytes: limits.hash_bytes,
        });
        engine.prefault();
        AppState {
            engine: Mutex::new(engine),
            slot: Arc::new(tokio::sync::Semaphore::new(1)),
            current: Mutex::new(None),
            next_id: AtomicU64::new(1),
            shutting_down: AtomicBool::new(false),
            limits,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &ServerLimits {
        &self.limits
    }

    /// Whether a search or solve is running.
    pub fn busy(&self) -> bool {
        self.slot.available_permits() == 0
    }

    /// Raises the stop flag of the running search (only if its id is `id`, when given);
    /// `true` if such a search was running.
    pub fn stop_current(&self, id: Option<u64>) -> bool {
        match lock(&self.current).as_ref() {
            Some((running, stop)) if id.is_none_or(|id| id == *running) => {
                stop.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// Refuses new searches and stops the running one (Ctrl-C).
    pub fn shut_down(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
        self.stop_current(None);
    }
}

/// Locks a mutex, taking the data even if a thread panicked while holding it (the data here
/// stay consistent: a flag slot and an engine whose next search starts afresh).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `serve`: binds, prints the address on stdout, serves until Ctrl-C or SIGTERM, and
/// returns the exit status (0 after a clean shutdown, 2 on bad arguments or when the address
/// cannot be bound, with a one-line reason on stderr).
pub fn run(args: &ServeArgs) -> i32 {
    let limits = match ServerLimits::from_args(args) {
        Ok(l) => l,
        Err(e) => return crate::cli::bad_input(&e),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return crate::cli::bad_input(&format!("cannot start the server: {e}")),
    };
    let code = runtime.block_on(serve(args, limits));
    // Blocking tasks still running (a search past its stop) are not waited for.
    runtime.shutdown_timeout(Duration::from_millis(500));
    code
}

/// The async part of [`run`].
async fn serve(args: &ServeArgs, limits: ServerLimits) -> i32 {
    let listener = match tokio::net::TcpListener::bind((args.bind.as_str(), args.port)).await {
        Ok(l) => l,
        Err(e) => {
            return crate::cli::bad_input(&format!(
                "cannot listen on {}:{}: {e}",
                args.bind, args.port
            ))
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => return crate::cli::bad_input(&format!("cannot read the bound address: {e}")),
    };
    let state = Arc::new(AppState::new(limits));
    let app = api::router(state.clone());
    println!("Tianyuan web board: http://{addr}/ (Ctrl-C to stop)");
    if !addr.ip().is_loopback() {
        println!("warning: listening beyond this machine: anyone who can reach {addr} can use the engine");
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let signal_state = state.clone();
    let shutdown = async move {
        shutdown_signal().await;
        println!("shutting down");
        let _ = std::io::stdout().flush();
        signal_state.shut_down();
        // Connections that do not finish in time (a client that never reads) do not hold
        // the process.
        tokio::spawn(async {
            tokio::time::sleep(SHUTDOWN_GRACE).await;
            std::process::exit(0);
        });
    };
    match axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: server failed: {e}");
            1
        }
    }
}

/// Completes on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No signal handling: serve until killed.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
