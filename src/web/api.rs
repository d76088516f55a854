//! The routes of the web board: the embedded page and the JSON API.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /` (also `/index.html`), `/style.css`, `/app.js`, `/favicon.svg` | the page (embedded) |
//! | `GET /api/health` | `{"status":"ok",..}` with the server's limits |
//! | `POST /api/analyze` | the JSON object of `analyze --json` ([`crate::cli::result_json`]) |
//! | `POST /api/analyze/stream` | server-sent events: `start` (the search's id), `info` per iteration, then `result` |
//! | `POST /api/forbidden` | the JSON object of `forbidden --json` |
//! | `POST /api/solve` | the JSON object of `solve --json` |
//! | `POST /api/position` | the state of a position: side to move, winner, how the game ended (`result`: a five, black's foul, a full board), forbidden points |
//! | `POST /api/stop` | stops the running search (`{"id":n}`: only search `n`), which answers with what it has |
//!
//! Every error is `{"error":"reason"}` with its status: 400 bad input, 404 unknown route,
//! 405 wrong method, 408 body too slow, 413 body too large, 429 a search is running,
//! 503 shutting down, 500 only if a search failed inside (never expected).

use super::{lock, AppState, MAX_BODY_BYTES};
use crate::board::Board;
use crate::cli::{Position, PositionArgs};
use crate::gamefile::GameEnd;
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
            "/index.html",
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

/// The fields of a JSON object body, read one by one with messages that name the field
/// and what it takes (never a Rust type).
pub struct Fields(serde_json::Map<String, serde_json::Value>);

impl Fields {
    /// Parses a body that must be one JSON object with keys from `allowed` only.
    ///
    /// Errors: 400 naming the problem: an empty body (send `{}` for the defaults), not UTF-8,
    /// not JSON, not an object, an unknown key.
    pub fn parse(bytes: &[u8], allowed: &[&str]) -> Result<Fields, ApiError> {
        let text =
            std::str::from_utf8(bytes).map_err(|_| ApiError::bad("the body is not UTF-8"))?;
        if text.trim().is_empty() {
            return Err(ApiError::bad(
                "the body is empty: send a JSON object ({} for the defaults)",
            ));
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ApiError::bad(format!("bad JSON: {e}")))?;
        let serde_json::Value::Object(obj) = value else {
            return Err(ApiError::bad("the body must be a JSON object"));
        };
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(ApiError::bad(format!(
                "unknown field '{}'; this route takes: {}",
                crate::core::excerpt(k),
                allowed.join(", ")
            )));
        }
        Ok(Fields(obj))
    }

    /// The value of `key`, `None` when absent or `null`.
    fn get(&self, key: &str) -> Option<&serde_json::Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// `bad field 'key': must be <what>, not <value>`.
    fn wrong(key: &str, what: &str, v: &serde_json::Value) -> ApiError {
        ApiError::bad(format!(
            "bad field '{key}': must be {what}, not {}",
            crate::core::excerpt(&v.to_string())
        ))
    }

    /// A text field.
    ///
    /// Errors: 400 for a value that is not a string.
    pub fn text(&self, key: &str) -> Result<Option<String>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Self::wrong(key, "a string", v)),
        }
    }

    /// A field given as a string or a whole number (`rule`: `"renju"` or `4`; `size`:
    /// `"15x20"` or `15`), as text; `what` says what it takes, for the message.
    ///
    /// Errors: 400 for any other value.
    pub fn text_or_number(&self, key: &str, what: &str) -> Result<Option<String>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(v @ serde_json::Value::Number(n)) => match n.as_u64() {
                Some(n) => Ok(Some(n.to_string())),
                None => Err(Self::wrong(key, what, v)),
            },
            Some(v) => Err(Self::wrong(key, what, v)),
        }
    }

    /// A whole number of 0 or more (`what` says what it counts, for the message).
    ///
    /// Errors: 400 for a value that is not one.
    pub fn count(&self, key: &str, what: &str) -> Result<Option<u64>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| Self::wrong(key, what, v)),
        }
    }

    /// A whole number, possibly negative (`what` as for [`Fields::count`]).
    ///
    /// Errors: 400 for a value that is not one.
    pub fn int(&self, key: &str, what: &str) -> Result<Option<i64>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| Self::wrong(key, what, v)),
        }
    }

    /// `true` or `false`.
    ///
    /// Errors: 400 for any other value.
    pub fn flag(&self, key: &str) -> Result<Option<bool>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| Self::wrong(key, "true or false", v)),
        }
    }
}

/// The position fields of every POST route, with the meanings of the CLI's flags.
const POSITION_KEYS: [&str; 6] = ["rule", "size", "moves", "black", "white", "to_move"];

/// A position as the API takes it: the fields of [`PositionArgs`] (`rule` default renju,
/// `size` default 15).
#[derive(Debug, Clone, Default)]
pub struct PositionFields {
    /// Rule name or Gomocup number, as a string or a number (`"renju"`, `"4"`, `4`; renju
    /// when absent).
    pub rule: Option<String>,
    /// Board size as `N` or `WxH`, as a number or a string (`15`, `"15"`, `"15x20"`; each
    /// side 5..=22, 15 when absent).
    pub size: Option<String>,
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
    /// Reads the position fields of a body.
    ///
    /// Errors: 400 for a field of the wrong kind.
    pub fn read(f: &Fields) -> Result<PositionFields, ApiError> {
        Ok(PositionFields {
            rule: f.text_or_number("rule", "a rule name or Gomocup number")?,
            size: f.text_or_number("size", "a board size: N or \"WxH\"")?,
            moves: f.text("moves")?,
            black: f.text("black")?,
            white: f.text("white")?,
            to_move: f.text("to_move")?,
        })
    }

    /// The same position as command-line flags.
    pub fn to_args(&self) -> PositionArgs {
        PositionArgs {
            rule: Some(self.rule.clone().unwrap_or_else(|| "renju".into())),
            size: Some(self.size.clone().unwrap_or_else(|| "15".into())),
            moves: self.moves.clone(),
            // Never a file: the server reads no files for its clients.
            file: None,
            ply: None,
            black: self.black.clone(),
            white: self.white.clone(),
            to_move: self.to_move.clone(),
        }
    }

    /// Builds and judges the position as the CLI does ([`crate::cli::Setup::position`]).
    ///
    /// Errors: 400 with the CLI's reason (bad rule, size, point, occupied point, stone
    /// counts, both `moves` and stone sets, a stone after the end of the game).
    pub fn position(&self) -> Result<Position, ApiError> {
        self.to_args()
            .setup()
            .and_then(|s| s.position())
            .map_err(|e| ApiError::bad(api_words(&e)))
    }

    /// The board of a position the side to move can still play.
    ///
    /// Errors: as [`PositionFields::position`], and 400 `the game is over: <why>`.
    pub fn board(&self) -> Result<Board, ApiError> {
        self.position()?
            .playable()
            .map_err(|e| ApiError::bad(api_words(&e)))
    }
}

/// The CLI's reason in the API's words: it names its fields, not flags.
fn api_words(e: &str) -> String {
    e.replace(", --file or", " or")
        .replace("--to-move", "to_move")
        .replace("--moves", "moves")
        .replace("--black", "black")
        .replace("--white", "white")
        .replace("--rule", "rule")
}

/// The JSON of how a game ended (`/api/position`'s `result`): `{"winner":"white"|"black"|
/// null, "by":"five"|"foul"|"full", "move":9|null, "point":"h9"|null, "foul":"double-three"|
/// null, "text":"white wins: ..."}`; `null` while the game goes on. `move` and `point` are
/// null for stone sets (no order is known).
pub fn result_json(pos: &Position) -> serde_json::Value {
    let Some(text) = pos.over() else {
        return serde_json::Value::Null;
    };
    let (winner, by, ply, point, foul) = match pos.end {
        Some(GameEnd::Five { winner, ply, point }) => {
            (Some(winner), "five", Some(ply), Some(point), None)
        }
        Some(GameEnd::Foul { ply, point, kind }) => (
            Some(crate::core::Color::White),
            "foul",
            Some(ply),
            Some(point),
            Some(kind.name()),
        ),
        Some(GameEnd::Full { ply }) => (None, "full", Some(ply), None, None),
        None => match pos.board.winner() {
            Some(c) => (Some(c), "five", None, None, None),
            None => (None, "full", None, None, None),
        },
    };
    serde_json::json!({
        "winner": winner.map(|c| c.name()),
        "by": by,
        "move": ply,
        "point": point.map(|p| p.to_notation()),
        "foul": foul,
        "text": text,
    })
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
        let f = Fields::parse(bytes, &ANALYZE_KEYS)?;
        let pos = PositionFields::read(&f)?;
        let time_ms = f.count("time_ms", "a whole number of milliseconds")?;
        let depth = f.int("depth", "a whole number of plies")?;
        let multipv = f.count("multipv", "a whole number of lines")?;
        let threads = f.count("threads", "a whole number of threads")?;
        let max_ms = state.limits.max_time_ms;
        let board = pos.board()?;
        let time_ms = time_ms.map(|t| time_check(t, max_ms)).transpose()?;
        let depth = match depth {
            Some(d) if (1..=MAX_DEPTH as i64).contains(&d) => Some(d as i32),
            Some(_) => return Err(ApiError::bad(format!("depth must be 1..={MAX_DEPTH}"))),
            None => None,
        };
        let max_pv = crate::engine::MAX_MULTIPV;
        let multipv = multipv.unwrap_or(1);
        if !(1..=max_pv as u64).contains(&multipv) {
            return Err(ApiError::bad(format!("multipv must be 1..={max_pv}")));
        }
        let threads = threads_check(threads, state)?;
        let time = match (time_ms, depth) {
            (Some(t), _) => t,
            // A depth alone has no time limit in the CLI; here the server's cap bounds it.
            (None, Some(_)) => max_ms,
            (None, None) => DEFAULT_ANALYZE_MS.min(max_ms),
        };
        Ok(AnalyzeJob {
            board,
            limits: Limits {
                budget: Budget::fixed(time),
                max_depth: depth,
                multipv: multipv as usize,
                ..Limits::default()
            },
            threads,
        })
    }
}

/// `time_ms` checked as the tools check `--time-ms` ([`crate::cli::check_time_ms`]), within
/// the server's longest time.
///
/// Errors: 400 `time_ms must be 1..=<max> (milliseconds)`.
fn time_check(ms: u64, max_ms: u64) -> Result<u64, ApiError> {
    crate::cli::check_time_ms("time_ms", ms, max_ms).map_err(ApiError::bad)
}

/// `threads` checked as the tools check `--threads` ([`crate::cli::check_threads`]),
/// capped at the server's threads.
///
/// Errors: 400 `threads must be at least 1 ...`.
fn threads_check(threads: Option<u64>, state: &AppState) -> Result<usize, ApiError> {
    let t = threads.map(|t| t.min(usize::MAX as u64) as usize);
    crate::cli::check_threads("threads", t, state.limits.threads).map_err(ApiError::bad)
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
    crate::cli::result_json(&r, &job.board)
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
        "vcf_nodes": info.vcf_nodes,
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
        "max_multipv": crate::engine::MAX_MULTIPV,
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
    let pos = PositionFields::read(&Fields::parse(&bytes, &POSITION_KEYS)?)?;
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
    let f = Fields::parse(&bytes, &SOLVE_KEYS)?;
    let pos = PositionFields::read(&f)?;
    let vct = f.flag("vct")?;
    let time_ms = f.count("time_ms", "a whole number of milliseconds")?;
    let threads = f.count("threads", "a whole number of threads")?;
    let memory_mb = f.count("memory_mb", "a whole number of MiB")?;
    let board = pos.board()?;
    let max_ms = state.limits.max_time_ms;
    let time_ms = match time_ms {
        Some(t) => time_check(t, max_ms)?,
        None => DEFAULT_SOLVE_MS.min(max_ms),
    };
    let threads = threads_check(threads, &state)?;
    let memory_bytes = match memory_mb {
        None | Some(0) => state.limits.solve_memory_bytes,
        Some(mb) => (mb.min(usize::MAX as u64) as usize)
            .saturating_mul(1 << 20)
            .min(state.limits.solve_memory_bytes),
    };
    let limits = SolveLimits {
        time_ms,
        threads,
        memory_bytes,
    };
    let vct = vct.unwrap_or(false);
    let slot = take_slot(&state)?;
    // A client that goes away stops its solve.
    let _guard = StopOnDrop(slot.stop.clone());
    let (report, line) = tokio::task::spawn_blocking(move || {
        let r = solve_with_stop(&board, vct, &limits, &slot.stop);
        drop(slot);
        let line = crate::cli::winline::to_five(&board, &r.line);
        (r, line)
    })
    .await
    .map_err(join_error)?;
    Ok(json_ok(crate::cli::winline::report_json(&report, &line)))
}

async fn position(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let fields = PositionFields::read(&Fields::parse(&bytes, &POSITION_KEYS)?)?;
    let pos = fields.position()?;
    let result = result_json(&pos);
    let board = &pos.board;
    let to_move = board.side_to_move();
    let forbidden = if board.rule().has_forbidden(to_move) && result.is_null() {
        let mut v = crate::cli::forbidden_json(board);
        v["forbidden"].take()
    } else {
        serde_json::json!([])
    };
    Ok(json_ok(serde_json::json!({
        "rule": board.rule().name(),
        "size": board.width(),
        "height": board.height(),
        "stones": board.stone_count(),
        "to_move": to_move.name(),
        "winner": result["winner"].clone(),
        "full": board.is_full(),
        "result": result,
        "forbidden": forbidden,
    })))
}

async fn stop(State(state): State<Arc<AppState>>, body: Body) -> ApiResult {
    let bytes = read_body(body, state.limits.body_timeout).await?;
    let f = Fields::parse(&bytes, &["id"])?;
    let id = f.count("id", "a search id (a whole number)")?;
    Ok(json_ok(
        serde_json::json!({ "stopped": state.stop_current(id) }),
    ))
}
