//! The routes of the web board: the embedded page and the JSON API.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /` , `/style.css`, `/app.js`, `/favicon.svg` | the page (embedded) |
//! | `GET /api/health` | `{"status":"ok",..}` with the server's limits |
//! | `POST /api/analyze` | the JSON object of `analyze --json` ([`crate::cli::result_json`]) |
//! | `POST /api/analyze/stream` | server-sent events: `start` (the search's id), `info` per iteration, then `result` |
//! | `POST /api/forbidden` | the JSON object of `forbidden --json` |
//! | `POST /api/solve` | the JSON object of `solve --json` |
//! | `POST /api/position` | the state of a position: side to move, winner, forbidden points |
//! | `POST /api/stop` | stops the running search (`{"id":n}`: only search `n`), which answers with what it has |
//!
//! Every error is `{"error":"reason"}` with its status: 400 bad input, 404 unknown route,
//! 405 wrong method, 408 body too slow, 413 body too large, 429 a search is running,
//! 503 shutting down, 500 only if a search failed inside (never expected).

use super::{lock, AppState, MAX_BODY_BYTES};
use crate::board::Board;
use crate::cli::PositionArgs;
use crate::search::threat::{solve_with_stop, SolveLimits};
use crate::search::{mate_plies, Limits, SearchInfo};
use crate::time::Budget;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Deepest `depth` a request may ask for (plies), as `analyze --depth`.
pub const MAX_DEPTH: i32 = 100;

/// Search time when a request gives neither `time_ms` nor `depth`, in milliseconds (as
/// `analyze`).
pub const DEFAULT_ANALYZE_MS: u64 = 1000;

/// Solve time when a request gives no `time_ms`, in milliseconds (as `solve`).
pub const DEFAULT_SOLVE_MS: u64 = 5000;

const INDEX_HTML: &str = include_str!("../../web/index.html");
const STYLE_CSS: &str = include_str!("../../web/style.css");
const APP_JS: &str = include_str!("../../web/app.js");
const FAVICON_SVG: &str = include_str!("../../web/favicon.svg");

/// The router of the web board over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset("image/svg+xml", FAVICON_SVG) }),
        )
        .route("/api/health", get(health))
        .route("/api/analyze", post(analyze))
        .route("/api/analyze/stream", post(analyze_stream))
        .route("/api/forbidden", post(forbidden))
        .route("/api/solve", post(solve))
        .route("/api/position", post(position))
        .route("/api/stop", post(stop))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: the API takes POST with a JSON body (GET for /api/health)",
            )
        })
        .with_state(state)
}

/// An embedded file of the page.
fn asset(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response()
}

/// A JSON response with status 200.
fn json_ok(v: serde_json::Value) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        v.to_string(),
    )
        .into_response()
}

/// An API error: `{"error":"reason"}` with a status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx, or 500/503).
    pub status: StatusCode,
    /// One line saying what was wrong.
    pub reason: String,
}

impl ApiError {
    /// An error with `status` and `reason` (newlines become spaces).
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError {
            status,
            reason: reason.into().replace('\n', " "),
        }
    }

    /// A 400 Bad Request.
    pub fn bad(reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, reason)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (
            self.status,
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            serde_json::json!({ "error": self.reason }).to_string(),
        )
            .into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            r.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        r
    }
}

type ApiResult = Result<Response, ApiError>;

/// Reads a request body of at most [`MAX_BODY_BYTES`] within `timeout`
/// ([`super::BODY_TIMEOUT`] unless the server was told otherwise).
///
/// Errors: 413 for a longer body, 408 for a slow one, 400 for a broken one.
async fn read_body(body: Body, timeout: Duration) -> Result<Vec<u8>, ApiError> {
    use futures_util::StreamExt;
    let read = async {
        let mut out = Vec::new();
        let mut stream = body.into_data_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ApiError::bad(format!("cannot read the body: {e}")))?;
            if out.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the body is larger than {MAX_BODY_BYTES} bytes"),
                ));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(r) => r,
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body did not arrive within {} ms", timeout.as_millis()),
        )),
    }
}

/// Parses a JSON object body into `T`, refusing any key outside `allowed`.
///
/// Errors: 400 naming the problem (not JSON, not an object, an unknown key, a wrong type).
fn parse_json<T: DeserializeOwned>(bytes: &[u8], allowed: &[&str]) -> Result<T, ApiError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ApiError::bad("the body is not UTF-8"))?;
    let text = if text.trim().is_empty() { "{}" } else { text };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ApiError::bad(format!("bad JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| ApiError::bad("the body must be a JSON object"))?;
    if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(ApiError::bad(format!(
            "unknown field '{k}'; this route takes: {}",
            allowed.join(", ")
        )));
    }
    serde_json::from_value(value).map_err(|e| ApiError::bad(format!("bad field: {e}")))
}

/// The position fields of every POST route, with the meanings of the CLI's flags.
const POSITION_KEYS: [&str; 6] = ["rule", "size", "moves", "black", "white", "to_move"];

/// A position as the API takes it: the fields of [`PositionArgs`] (`rule` default renju,
/// `size` default 15).
#[derive(Deserialize, Debug, Clone, Default)]
pub struct PositionFields {
    /// Rule name or Gomocup number (`renju` when absent).
    pub rule: Option<String>,
    /// Board side, 5..=22 (15 when absent).
    pub size: Option<usize>,
    /// Moves from black, comma-separated notation (`"h8,h9,i10"`).
    pub moves: Option<String>,
    /// Black stones as a set.
    pub black: Option<String>,
    /// White stones as a set.
    pub white: Option<String>,
    /// Side to move with `black`/`white`.
    pub to_move: Option<String>,
}

impl PositionFields {
    /// The same position as command-line flags.
    pub fn to_args(&self) -> PositionArgs {
        PositionArgs {
            rule: Some(self.rule.clone().unwrap_or_else(|| "renju".into())),
            size: Some(self.size.unwrap_or(15).to_string()),
            moves: self.moves.clone(),
            // Never a file: the server reads no files for its clients.
            file: None,
            ply: None,
            black: self.black.clone(),
            white: self.white.clone(),
            to_move: self.to_move.clone(),
        }
    }

    /// Builds the board as the CLI does ([`PositionArgs::board`]).
    ///
    /// Errors: 400 with the CLI's reason (bad rule, size, point, occupied point, both
    /// `moves` and stone sets).
    pub fn board(&self) -> Result<Board, ApiError> {
        self.to_args().board().map_err(|e| {
            // The CLI names its flags; the API names its fields.
            ApiError::bad(
                e.replace(", --file or", " or")
                    .replace("--to-move", "to_move")
                    .replace("--moves", "moves")
                    .replace("--black", "black")
                    .replace("--white", "white"),
            )
        })
    }
}

/// Checks that the side to move can still play: no five on the board, an empty point left.
///
/// Errors: 400 saying why the game is over.
fn check_playable(board: &Board) -> Result<(), ApiError> {
    if let Some(c) = board.winner() {
        return Err(ApiError::bad(format!(
            "the game is over: {} has a five",
            c.name()
        )));
    }
    if board.is_full() {
        return Err(ApiError::bad("the board is full"));
    }
    Ok(())
}

#[derive(Deserialize)]
struct AnalyzeBody {
    #[serde(flatten)]
    pos: PositionFields,
    time_ms: Option<u64>,
    depth: Option<i32>,
    multipv: Option<usize>,
    threads: Option<usize>,
}

const ANALYZE_KEYS: [&str; 10] = [
    "rule", "size", "moves", "black", "white", "to_move", "time_ms", "depth", "multipv", "threads",
];

/// A checked analyze request: the board, the search limits and the threads.
struct AnalyzeJob {
    board: Board,
    limits: Limits,
    threads: usize,
}

impl AnalyzeJob {
    /// Reads and checks an analyze body against the server's limits.
    ///
    /// Errors: 400 for any field out of range or a finished game.
    fn parse(bytes: &[u8], state: &AppState) -> Result<AnalyzeJob, ApiError> {
        let body: AnalyzeBody = parse_json(bytes, &ANALYZE_KEYS)?;
        let max_ms = state.limits.max_time_ms;
        let board = body.pos.board()?;
        check_playable(&board)?;
        if let Some(t) = body.time_ms {
            if !(1..=max_ms).contains(&t) {
                return Err(ApiError::bad(format!("time_ms must be 1..={max_ms}")));
            }
        }
        if let Some(d) = body.depth {
            if !(1..=MAX_DEPTH).contains(&d) {
                return Err(ApiError::bad(format!("depth must be 1..={MAX_DEPTH}")));
            }
        }
        let max_pv = crate::protocol::session::MAX_MULTIPV;
        let multipv = body.multipv.unwrap_or(1);
        if !(1..=max_pv).contains(&multipv) {
            return Err(ApiError::bad(format!("multipv must be 1..={max_pv}")));
        }
        let threads = match body.threads {
            Some(0) => return Err(ApiError::bad("threads must be at least 1")),
            Some(t) => t.min(state.limits.threads),
            None => state.limits.threads,
        };
        let time = match (body.time_ms, body.depth) {
            (Some(t), _) => t,
            // A depth alone has no time limit in the CLI; here the server's cap bounds it.
            (None, Some(_)) => max_ms,
            (None, None) => DEFAULT_ANALYZE_MS.min(max_ms),
        };
        Ok(AnalyzeJob {
            board,
            limits: Limits {
                budget: Budget::fixed(time),
                max_depth: body.depth,
                multipv,
                ..Limits::default()
            },
            threads,
        })
    }
}

/// The search slot held by the running search; frees the slot when dropped.
struct Slot {
    _permit: tokio::sync::OwnedSemaphorePermit,
    id: u64,
    stop: Arc<AtomicBool>,
    state: Arc<AppState>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut cur = lock(&self.state.current);
        if cur.as_ref().is_some_and(|(id, _)| *id == self.id) {
            *cur = None;
        }
    }
}

/// Takes the search slot.
///
/// Errors: 429 when a search is running, 503 when the server is shutting down.
fn take_slot(state: &Arc<AppState>) -> Result<Slot, ApiError> {
    if state.shutting_down.load(Ordering::Relaxed) {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        ));
    }
    let permit = state.slot.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "busy: another search is running (one at a time; POST /api/stop ends it)",
        )
    })?;
    let stop = Arc::new(AtomicBool::new(false));
    let id = state.next_id.fetch_add(1, Ordering::Relaxed);
    *lock(&state.current) = Some((id, stop.clone()));
    Ok(Slot {
        _permit: permit,
        id,
        stop,
        state: state.clone(),
    })
}

/// Runs `job` on the engine, reporting each iteration to `on_info`; frees the slot before
/// returning the result's JSON (so that the next request finds the slot free as soon as it
/// has the answer).
fn run_analyze(
    job: AnalyzeJob,
    slot: Slot,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> serde_json::Value {
    let state = slot.state.clone();
    let r = {
        let mut engine = lock(&state.engine);
        engine.set_threads(job.threads);
        engine.think(&job.board, &job.limits, &slot.stop, on_info)
    };
    drop(slot);
    crate::cli::result_json(&r)
}

/// The JSON of one iteration's progress (an `info` event of the stream):
/// `{"depth","seldepth","score","win_in","nodes","nps","time_ms","pv","pv_index","num_pv"}`.
pub fn info_json(info: &SearchInfo) -> serde_json::Value {
    serde_json::json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": info.score,
        "win_in": mate_plies(info.score),
        "nodes": info.nodes,
        "nps": info.nodes * 1000 / info.time_ms.max(1),
        "time_ms": info.time_ms,
        "pv": info.pv.iter().map(|p| p.to_notation()).collect::<Vec<_>>(),
        "pv_index": info.pv_index,
        "num_pv": info.num_pv,
    })
}

/// The error of a blocking task that did not finish (a panic inside the search).
fn join_error(e: tokio::task::JoinError) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the search failed: {e}"),
    )
}

async fn health(State(state): State<Arc<AppState>>) -> Response {
    let l = state.limits;
    json_ok(serde_json::json!({
        "status": "ok",
        "engine": "tianyuan",
        "version": env!("CARGO_PKG_VERSION"),
        "busy": state.busy(),
        "threads": l.threads,
        "hash_mb": l.hash_bytes >> 20,
        "max_time_ms": l.max_time_ms,
        "max_depth": MAX_DEPTH,
        "max_multipv": crate::protocol::session::MAX_MULTIPV,
        "min_size": crate::core::MIN_SIZE,
        "max_size": crate::core::MAX_SIZE,
        "rules": crate::core::Rule::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
    }))
}

async fn analyze(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let job = AnalyzeJob::parse(&bytes, &state)?;
    let slot = take_slot(&state)?;
    // A client that goes away stops its search.
    let _guard = StopOnDrop(slot.stop.clone());
    let v = tokio::task::spawn_blocking(move || run_analyze(job, slot, &mut |_| {}))
        .await
        .map_err(join_error)?;
    Ok(json_ok(v))
}

/// Raises a stop flag when dropped: the request (or stream) of a client that went away stops
/// its search. Raising it after the search has ended does nothing.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn analyze_stream(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let job = AnalyzeJob::parse(&bytes, &state)?;
    let slot = take_slot(&state)?;
    let guard = StopOnDrop(slot.stop.clone());
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let start = serde_json::json!({ "id": slot.id }).to_string();
    let _ = tx.send(Event::default().event("start").data(start));
    let task = tokio::task::spawn_blocking(move || {
        let info_tx = tx.clone();
        let v = run_analyze(job, slot, &mut |info| {
            let _ = info_tx.send(
                Event::default()
                    .event("info")
                    .data(info_json(info).to_string()),
            );
        });
        let _ = tx.send(Event::default().event("result").data(v.to_string()));
    });
    // A failed search still ends the stream, with an `error` event.
    let (err_tx, err_rx) = tokio::sync::oneshot::channel::<Event>();
    tokio::spawn(async move {
        if let Err(e) = task.await {
            let msg = serde_json::json!({ "error": join_error(e).reason }).to_string();
            let _ = err_tx.send(Event::default().event("error").data(msg));
        }
    });
    let stream = futures_util::stream::unfold(
        (Some(rx), Some(err_rx), guard),
        |(rx, err_rx, guard)| async move {
            if let Some(mut rx) = rx {
                if let Some(ev) = rx.recv().await {
                    return Some((Ok::<_, Infallible>(ev), (Some(rx), err_rx, guard)));
                }
            }
            // The search is over: an error event if it failed, then the end.
            match err_rx {
                Some(e) => e.await.ok().map(|ev| (Ok(ev), (None, None, guard))),
                None => None,
            }
        },
    );
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
        .into_response())
}

async fn forbidden(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let pos: PositionFields = parse_json(&bytes, &POSITION_KEYS)?;
    match pos.rule.as_deref().map(crate::core::Rule::parse) {
        None | Some(Some(crate::core::Rule::Renju)) => {}
        Some(Some(r)) => {
            return Err(ApiError::bad(format!(
                "forbidden points exist only under renju, not {r}"
            )))
        }
        Some(None) => {}
    }
    let board = pos.board()?;
    Ok(json_ok(crate::cli::forbidden_json(&board)))
}

#[derive(Deserialize)]
struct SolveBody {
    #[serde(flatten)]
    pos: PositionFields,
    vct: Option<bool>,
    time_ms: Option<u64>,
    threads: Option<usize>,
    memory_mb: Option<usize>,
}

const SOLVE_KEYS: [&str; 10] = [
    "rule",
    "size",
    "moves",
    "black",
    "white",
    "to_move",
    "vct",
    "time_ms",
    "threads",
    "memory_mb",
];

async fn solve(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let b: SolveBody = parse_json(&bytes, &SOLVE_KEYS)?;
    let board = b.pos.board()?;
    check_playable(&board)?;
    let max_ms = state.limits.max_time_ms;
    let time_ms = match b.time_ms {
        // 0 is "no limit" for the CLI; the server's cap is the limit here.
        Some(0) => max_ms,
        Some(t) if t <= max_ms => t,
        Some(_) => {
            return Err(ApiError::bad(format!(
                "time_ms must be 0..={max_ms} (0: the server's longest)"
            )))
        }
        None => DEFAULT_SOLVE_MS.min(max_ms),
    };
    let threads = match b.threads {
        Some(0) => return Err(ApiError::bad("threads must be at least 1")),
        Some(t) => t.min(state.limits.threads),
        None => state.limits.threads,
    };
    let memory_bytes = match b.memory_mb {
        None | Some(0) => state.limits.solve_memory_bytes,
        Some(mb) => mb
            .saturating_mul(1 << 20)
            .min(state.limits.solve_memory_bytes),
    };
    let limits = SolveLimits {
        time_ms,
        threads,
        memory_bytes,
    };
    let vct = b.vct.unwrap_or(false);
    let slot = take_slot(&state)?;
    // A client that goes away stops its solve.
    let _guard = StopOnDrop(slot.stop.clone());
    let report = tokio::task::spawn_blocking(move || {
        let r = solve_with_stop(&board, vct, &limits, &slot.stop);
        drop(slot);
        r
    })
    .await
    .map_err(join_error)?;
    Ok(json_ok(report.to_json()))
}

async fn position(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let pos: PositionFields = parse_json(&bytes, &POSITION_KEYS)?;
    let board = pos.board()?;
    let to_move = board.side_to_move();
    let forbidden = if board.rule().has_forbidden(to_move) {
        let mut v = crate::cli::forbidden_json(&board);
        v["forbidden"].take()
    } else {
        serde_json::json!([])
    };
    Ok(json_ok(serde_json::json!({
        "rule": board.rule().name(),
        "size": board.width(),
        "stones": board.stone_count(),
        "to_move": to_move.name(),
        "winner": board.winner().map(|c| c.name()),
        "full": board.is_full(),
        "forbidden": forbidden,
    })))
}

#[derive(Deserialize)]
struct StopBody {
    id: Option<u64>,
}

async fn stop(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let b: StopBody = parse_json(&bytes, &["id"])?;
    Ok(json_ok(
        serde_json::json!({ "stopped": state.stop_current(b.id) }),
    ))
}
