//! The web board's JSON API over a real socket (`pbrain-tianyuan serve` on 127.0.0.1): each
//! route, the same JSON as the command-line tools, bad input of every kind (a JSON error with
//! a 4xx status, and the server goes on), the one-search bound, the caps on time, the stop
//! of a search whose client went away, and the clean shutdown on Ctrl-C.
mod web_common;

use std::process::Command;
use std::time::{Duration, Instant};
use web_common::{events, Server, Stream};

/// Runs the CLI and parses its one JSON line.
fn cli_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// A small server for one test: one thread, a small table.
fn server(extra: &[&str]) -> Server {
    let mut args = vec!["--threads", "1", "--hash-mb", "8"];
    args.extend_from_slice(extra);
    Server::start(&args)
}

#[test]
fn health_page_and_default_bind() {
    let s = server(&[]);
    assert!(s.url.starts_with("http://127.0.0.1:"), "{}", s.url);
    let r = s.get("/api/health");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v = r.json();
    assert_eq!(v["status"], "ok");
    assert_eq!(v["busy"], false);
    assert_eq!(v["threads"], 1);
    assert_eq!(v["hash_mb"], 8);
    assert_eq!(v["max_time_ms"], 60000);
    assert_eq!(v["min_size"], 5);
    assert_eq!(v["max_size"], 22);
    assert!(v["rules"].as_array().unwrap().contains(&"renju".into()));

    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.body.contains("id=\"board\""), "{}", page.body);
    assert!(page.body.contains("/app.js"));
    // The orientation toggle (docs/web.md): row 1 at the top (screen) or at the bottom (book).
    assert!(
        page.body.contains(r#"<select id="orientation""#),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(r#"<option value="book">"#),
        "{}",
        page.body
    );
    let js = s.get("/app.js");
    assert_eq!(js.status, 200);
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(js.body.contains("/api/analyze/stream"));
    let css = s.get("/style.css");
    assert_eq!(css.status, 200);
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
    assert_eq!(s.get("/favicon.svg").status, 200);
    // Nothing else is served: no file of the repository, however the path is spelt.
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/web/app.js",
        "/src/main.rs",
        "/index.html/../../etc/passwd",
        "/api",
    ] {
        let r = s.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.json()["error"].is_string(), "{path}");
    }
}

#[test]
fn analyze_gives_the_cli_json() {
    let s = server(&[]);
    // Black's open three h8-i8-j8: a forced win (four-three or straight four).
    let moves = "h8,h9,i8,i9,j8,a1";
    let r = s.post(
        "/api/analyze",
        &format!(r#"{{"rule":"freestyle","size":15,"moves":"{moves}","depth":3}}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let api = r.json();
    let cli = cli_json(&[
        "analyze",
        "--rule",
        "freestyle",
        "--moves",
        moves,
        "--depth",
        "3",
        "--threads",
        "1",
        "--hash-mb",
        "8",
        "--json",
    ]);
    assert_eq!(keys(&api), keys(&cli));
    assert_eq!(
        keys(&api),
        [
            "move",
            "score",
            "static",
            "win_in",
            "depth",
            "nodes",
            "vcf_nodes",
            "nps",
            "time_ms",
            "pv"
        ]
    );
    // One thread, fixed depth, fresh tables: the same search.
    for k in ["move", "score", "static", "win_in", "depth", "pv"] {
        assert_eq!(api[k], cli[k], "{k}: api {api} cli {cli}");
    }
    assert!(api["win_in"].as_i64().unwrap() > 0, "{api}");
    assert!(
        ["g8", "k8"].contains(&api["move"].as_str().unwrap()),
        "{api}"
    );

    // Multi-PV: `lines`, best first, as the CLI prints them.
    let r = s.post(
        "/api/analyze",
        r#"{"rule":"renju","moves":"h8,h9,i10","depth":2,"multipv":3}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["move"], v["move"]);
    assert_eq!(keys(&lines[0]), ["move", "score", "pv"]);
    let cli = cli_json(&[
        "analyze",
        "--moves",
        "h8,h9,i10",
        "--depth",
        "2",
        "--multipv",
        "3",
        "--json",
    ]);
    assert_eq!(keys(&v), keys(&cli));

    // Stone sets and the side to move, with a time limit.
    let r = s.post(
        "/api/analyze",
        r#"{"rule":"freestyle","black":"h8,i8,j8,k8","white":"h9,i9,j9","to_move":"white","time_ms":200}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    // White must block the four at g8 or l8 (h8-k8 is an open four: white loses anyway).
    assert!(v["move"].is_string());
    assert!(v["time_ms"].as_u64().unwrap() <= 5000, "{v}");
}

#[test]
fn analyze_stream_reports_each_iteration() {
    let s = server(&[]);
    let mut st = Stream::open(
        &s,
        "/api/analyze/stream",
        r#"{"rule":"renju","moves":"h8,h9","depth":5}"#,
    );
    let id = st.search_id();
    assert!(id >= 1);
    let r = st.finish();
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("text/event-stream"));
    let evs = events(&r.body);
    assert_eq!(evs.first().unwrap().0, "start", "{evs:?}");
    assert_eq!(evs.last().unwrap().0, "result", "{evs:?}");
    let infos: Vec<serde_json::Value> = evs
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(infos.len(), 5, "one per depth: {evs:?}");
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info["depth"], i as i64 + 1);
        assert_eq!(info["pv_index"], 0);
        assert_eq!(info["num_pv"], 1);
        assert!(!info["pv"].as_array().unwrap().is_empty());
        for k in [
            "seldepth",
            "score",
            "win_in",
            "nodes",
            "vcf_nodes",
            "nps",
            "time_ms",
        ] {
            assert!(info.get(k).is_some(), "{k} in {info}");
        }
    }
    let result: serde_json::Value = serde_json::from_str(&evs.last().unwrap().1).unwrap();
    assert_eq!(
        keys(&result),
        [
            "move",
            "score",
            "static",
            "win_in",
            "depth",
            "nodes",
            "vcf_nodes",
            "nps",
            "time_ms",
            "pv"
        ]
    );
    assert_eq!(result["depth"], 5);
    assert_eq!(result["pv"], infos[4]["pv"]);
}

#[test]
fn forbidden_solve_and_position() {
    let s = server(&[]);
    let moves = "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9";
    let r = s.post("/api/forbidden", &format!(r#"{{"moves":"{moves}"}}"#));
    assert_eq!(r.status, 200, "{}", r.body);
    let cli = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(["forbidden", "--moves", moves, "--json"])
        .output()
        .unwrap();
    assert_eq!(r.body, String::from_utf8_lossy(&cli.stdout).trim());
    assert_eq!(
        r.body,
        r#"{"forbidden":[{"point":"k8","kind":"overline"}]}"#
    );

    // VCF and VCT: the solver's JSON, as `solve --json`.
    let moves = "h8,h9,i8,i9,j8,a1";
    let r = s.post(
        "/api/solve",
        &format!(r#"{{"rule":"freestyle","moves":"{moves}"}}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let api = r.json();
    let cli = cli_json(&["solve", "--rule", "freestyle", "--moves", moves, "--json"]);
    assert_eq!(keys(&api), keys(&cli));
    for k in ["result", "move", "line", "plies"] {
        assert_eq!(api[k], cli[k], "{k}");
    }
    assert_eq!(api["result"], "win");
    let r = s.post(
        "/api/solve",
        r#"{"rule":"freestyle","moves":"h8,a1,i9,a3","vct":true,"time_ms":2000}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(["win", "none", "unknown"].contains(&r.json()["result"].as_str().unwrap()));

    // The position: a double three at j8 for black to move.
    let r = s.post(
        "/api/position",
        r#"{"rule":"renju","size":15,"moves":"h8,a1,i8,a3,j9,a5,j10,a7"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body,
        r#"{"rule":"renju","size":15,"height":15,"stones":8,"to_move":"black","winner":null,"full":false,"result":null,"forbidden":[{"point":"j8","kind":"double-three"}]}"#
    );
    // White to move: black's forbidden points are not listed.
    let v = s
        .post("/api/position", r#"{"moves":"h8,a1,i8,a3,j9,a5,j10"}"#)
        .json();
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["forbidden"], serde_json::json!([]));
    // A five: the winner.
    let v = s
        .post(
            "/api/position",
            r#"{"rule":"freestyle","moves":"h8,a1,i8,a2,j8,a3,k8,a4,l8"}"#,
        )
        .json();
    assert_eq!(v["winner"], "black");
    assert_eq!(v["rule"], "freestyle");
    assert_eq!(v["result"]["by"], "five");
    assert_eq!(v["result"]["move"], 9);
    assert_eq!(v["result"]["point"], "l8");
}

/// Issue 34: black's foul inside a move list ends the game for every route: the position
/// reports white as the winner and says why; the routes that analyse refuse it; a stone
/// after the end of the game is refused everywhere.
#[test]
fn a_renju_foul_in_the_moves_ends_the_game() {
    let s = server(&["--max-time-ms", "2000"]);
    let foul = "h8,a1,i9,a3,h10,a5,g9,a7,h9";
    let v = s
        .post("/api/position", &format!(r#"{{"moves":"{foul}"}}"#))
        .json();
    assert_eq!(v["winner"], "white", "{v}");
    assert_eq!(v["result"]["by"], "foul");
    assert_eq!(v["result"]["foul"], "double-three");
    assert_eq!(v["result"]["move"], 9);
    assert_eq!(v["result"]["point"], "h9");
    let text = v["result"]["text"].as_str().unwrap();
    assert!(text.contains("forbidden to black under renju"), "{text}");
    assert_eq!(v["forbidden"], serde_json::json!([]));
    // Under freestyle the same moves are a game in progress.
    let v = s
        .post(
            "/api/position",
            &format!(r#"{{"rule":"freestyle","moves":"{foul}"}}"#),
        )
        .json();
    assert_eq!(v["winner"], serde_json::Value::Null);
    assert_eq!(v["result"], serde_json::Value::Null);
    for path in ["/api/analyze", "/api/solve", "/api/forbidden"] {
        let r = s.post(path, &format!(r#"{{"moves":"{foul}"}}"#));
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            e.contains("the game is over: white wins") && e.contains("double three"),
            "{path}: {e}"
        );
    }
    for (rule, moves) in [
        ("renju", format!("{foul},o15")),
        ("freestyle", "h8,a1,i8,a2,j8,a3,k8,a4,l8,o15".to_string()),
    ] {
        let r = s.post(
            "/api/position",
            &format!(r#"{{"rule":"{rule}","moves":"{moves}"}}"#),
        );
        assert_eq!(r.status, 400, "{rule}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            e.contains("move 10 (o15) comes after the end of the game"),
            "{e}"
        );
    }
}

/// Issue 34: the API takes sizes and rules as the tools do, names its fields (never a Rust
/// type) and checks stone counts; an empty body is refused.
#[test]
fn fields_read_as_the_tools_read_them() {
    let s = server(&[]);
    let v = s
        .post("/api/position", r#"{"size":"15x20","rule":4,"moves":"h8"}"#)
        .json();
    assert_eq!(
        (v["size"].clone(), v["height"].clone()),
        (15.into(), 20.into()),
        "{v}"
    );
    assert_eq!(v["rule"], "renju");
    let v = s.post("/api/position", r#"{"size":"9","rule":"0"}"#).json();
    assert_eq!(
        (v["size"].clone(), v["rule"].clone()),
        (9.into(), "freestyle".into())
    );
    for (body, needle) in [
        (r#"{"size":-3}"#, "bad field 'size': must be a board size"),
        (r#"{"size":1.5}"#, "bad field 'size'"),
        (
            r#"{"rule":true}"#,
            "bad field 'rule': must be a rule name or Gomocup number",
        ),
        (
            r#"{"time_ms":"x"}"#,
            "bad field 'time_ms': must be a whole number of milliseconds",
        ),
        (r#"{"time_ms":-1}"#, "bad field 'time_ms'"),
        (r#"{"threads":0}"#, "threads must be at least 1"),
        (
            r#"{"depth":"deep"}"#,
            "bad field 'depth': must be a whole number of plies",
        ),
        (r#"{"moves":5}"#, "bad field 'moves': must be a string"),
        (
            r#"{"black":"h8,h9,h10","white":"a1"}"#,
            "3 black and 1 white stones",
        ),
        ("", "the body is empty"),
        ("  ", "the body is empty"),
    ] {
        let r = s.post("/api/analyze", body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(needle), "{body}: '{e}' lacks '{needle}'");
        for rust in ["usize", "u64", "i32", "i64", "invalid type"] {
            assert!(!e.contains(rust), "{body}: {e}");
        }
    }
    // With to_move, any counts make a puzzle position.
    let r = s.post(
        "/api/position",
        r#"{"black":"h8,h9,h10","white":"a1","to_move":"black"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // The page is also served as /index.html.
    let page = s.get("/index.html");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("id=\"board\""));
}

#[test]
fn bad_input_gets_a_json_error_and_the_server_goes_on() {
    let s = server(&["--max-time-ms", "5000", "--body-timeout-ms", "300"]);
    let five = "h8,a1,i8,a2,j8,a3,k8,a4,l8";
    let cases: Vec<(&str, &str, String, u16, &str)> = vec![
        ("POST", "/api/analyze", "{".into(), 400, "bad JSON"),
        ("POST", "/api/analyze", "[1,2]".into(), 400, "JSON object"),
        ("POST", "/api/analyze", "\"h8\"".into(), 400, "JSON object"),
        (
            "POST",
            "/api/analyze",
            r#"{"timems":5}"#.into(),
            400,
            "unknown field 'timems'",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"size":"big"}"#.into(),
            400,
            "bad board size 'big'",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"size":-3}"#.into(),
            400,
            "bad field",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"depth":1.5}"#.into(),
            400,
            "bad field",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":["h8"]}"#.into(),
            400,
            "bad field",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"rule":"chess"}"#.into(),
            400,
            "unknown rule",
        ),
        ("POST", "/api/analyze", r#"{"size":4}"#.into(), 400, "size"),
        ("POST", "/api/analyze", r#"{"size":23}"#.into(), 400, "size"),
        (
            "POST",
            "/api/analyze",
            r#"{"size":18446744073709551615}"#.into(),
            400,
            "size",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":"h8,zz9"}"#.into(),
            400,
            "bad point",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":"h8,p1"}"#.into(),
            400,
            "off the",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":"h8,h8"}"#.into(),
            400,
            "occupied",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":"h8","black":"a1"}"#.into(),
            400,
            "give one of moves or black/white",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"moves":"h8","to_move":"white"}"#.into(),
            400,
            "to_move",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"black":"h8","to_move":"red"}"#.into(),
            400,
            "to_move",
        ),
        (
            "POST",
            "/api/analyze",
            format!(r#"{{"rule":"freestyle","moves":"{five}"}}"#),
            400,
            "game is over",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"depth":0}"#.into(),
            400,
            "depth must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"depth":101}"#.into(),
            400,
            "depth must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"multipv":0}"#.into(),
            400,
            "multipv must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"multipv":65}"#.into(),
            400,
            "multipv must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"time_ms":0}"#.into(),
            400,
            "time_ms must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"time_ms":5001}"#.into(),
            400,
            "time_ms must be",
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"threads":0}"#.into(),
            400,
            "threads",
        ),
        (
            "POST",
            "/api/analyze/stream",
            r#"{"depth":-1}"#.into(),
            400,
            "depth must be",
        ),
        (
            "POST",
            "/api/analyze/stream",
            r#"{"rule":5}"#.into(),
            400,
            "rule",
        ),
        (
            "POST",
            "/api/forbidden",
            r#"{"rule":"freestyle"}"#.into(),
            400,
            "only under renju",
        ),
        (
            "POST",
            "/api/forbidden",
            r#"{"depth":3}"#.into(),
            400,
            "unknown field",
        ),
        (
            "POST",
            "/api/solve",
            r#"{"time_ms":5001}"#.into(),
            400,
            "time_ms must be",
        ),
        (
            "POST",
            "/api/solve",
            r#"{"vct":"yes"}"#.into(),
            400,
            "bad field",
        ),
        (
            "POST",
            "/api/solve",
            format!(r#"{{"rule":"freestyle","moves":"{five}"}}"#),
            400,
            "game is over",
        ),
        (
            "POST",
            "/api/position",
            r#"{"size":30}"#.into(),
            400,
            "size",
        ),
        (
            "POST",
            "/api/stop",
            r#"{"id":"x"}"#.into(),
            400,
            "bad field",
        ),
        (
            "GET",
            "/api/analyze",
            String::new(),
            405,
            "method not allowed",
        ),
        ("PUT", "/api/solve", "{}".into(), 405, "method not allowed"),
        (
            "POST",
            "/api/health",
            "{}".into(),
            405,
            "method not allowed",
        ),
        ("DELETE", "/", String::new(), 405, "method not allowed"),
        ("POST", "/api/nothing", "{}".into(), 404, "no such"),
    ];
    for (method, path, body, status, needle) in &cases {
        let body = (!body.is_empty()).then_some(body.as_str());
        let r = s.request(method, path, body);
        assert_eq!(r.status, *status, "{method} {path} {body:?}: {}", r.body);
        assert_eq!(
            r.header("content-type"),
            Some("application/json"),
            "{method} {path}"
        );
        let err = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            err.contains(needle),
            "{method} {path} {body:?}: '{err}' lacks '{needle}'"
        );
        assert!(!err.contains('\n'));
    }

    // Bodies: not UTF-8, too large, announced but never sent.
    let mut req =
        b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\n"
            .to_vec();
    req.extend_from_slice(&[0xff, 0xfe, 0x7b, 0x7d]);
    let r = s.raw(&req);
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("UTF-8"));
    let big = format!(r#"{{"moves":"{}"}}"#, "h8,".repeat(30_000));
    let r = s.post("/api/analyze", &big);
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("larger"));
    let start = Instant::now();
    let r = s.raw(
        b"POST /api/position HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 50\r\n\r\n{\"moves\":",
    );
    assert_eq!(r.status, 408, "{}", r.body);
    assert!(r.json()["error"].is_string());
    assert!(start.elapsed() < Duration::from_secs(30));
    // Not HTTP at all: an answer (hyper's 400) or a closed connection, never a hang.
    let mut sock = s.connect();
    use std::io::{Read, Write};
    sock.write_all(b"\x16\x03\x01 garbage\r\n\r\n").unwrap();
    let mut buf = Vec::new();
    let _ = sock.read_to_end(&mut buf);
    if !buf.is_empty() {
        assert!(String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 4"));
    }

    // The server is still there and still searches.
    assert_eq!(s.get("/api/health").json()["status"], "ok");
    let r = s.post("/api/analyze", r#"{"moves":"h8","depth":2}"#);
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn one_search_at_a_time() {
    let s = server(&[]);
    let mut st = Stream::open(
        &s,
        "/api/analyze/stream",
        r#"{"rule":"freestyle","moves":"h8,h9","time_ms":30000}"#,
    );
    let id = st.search_id();
    // A second search or solve is refused at once, with a JSON reason and Retry-After.
    for (path, body) in [
        ("/api/analyze", r#"{"moves":"h8","depth":2}"#),
        ("/api/analyze/stream", r#"{"moves":"h8","depth":2}"#),
        ("/api/solve", r#"{"moves":"h8"}"#),
    ] {
        let r = s.post(path, body);
        assert_eq!(r.status, 429, "{path}: {}", r.body);
        assert_eq!(r.header("retry-after"), Some("1"));
        assert!(r.json()["error"].as_str().unwrap().contains("busy"));
    }
    // Input is still checked first; quick routes still answer.
    assert_eq!(s.post("/api/analyze", r#"{"depth":0}"#).status, 400);
    assert_eq!(s.get("/api/health").json()["busy"], true);
    assert_eq!(s.post("/api/forbidden", r#"{"moves":"h8"}"#).status, 200);
    assert_eq!(s.post("/api/position", r#"{"moves":"h8"}"#).status, 200);
    // Stopping another search does nothing; stopping this one ends it with its result.
    let r = s.post("/api/stop", &format!(r#"{{"id":{}}}"#, id + 1));
    assert_eq!(r.json()["stopped"], false);
    let start = Instant::now();
    let r = s.post("/api/stop", &format!(r#"{{"id":{id}}}"#));
    assert_eq!(r.json()["stopped"], true);
    let done = st.finish();
    assert!(start.elapsed() < Duration::from_secs(20));
    let evs = events(&done.body);
    let (name, data) = evs.last().unwrap();
    assert_eq!(name, "result");
    let result: serde_json::Value = serde_json::from_str(data).unwrap();
    assert!(result["time_ms"].as_u64().unwrap() < 30000);
    assert!(result["move"].is_string());
    // The slot is free again.
    assert_eq!(s.get("/api/health").json()["busy"], false);
    assert_eq!(s.post("/api/stop", "{}").json()["stopped"], false);
    let r = s.post("/api/analyze", r#"{"moves":"h8","depth":2}"#);
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn time_is_capped_by_the_server() {
    let s = server(&["--max-time-ms", "300"]);
    assert_eq!(s.get("/api/health").json()["max_time_ms"], 300);
    let r = s.post("/api/analyze", r#"{"moves":"h8","time_ms":301}"#);
    assert_eq!(r.status, 400);
    // A depth alone gets the server's longest time, not an unlimited search.
    let r = s.post(
        "/api/analyze",
        r#"{"rule":"freestyle","moves":"h8,h9,i10","depth":100,"threads":64}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(v["depth"].as_i64().unwrap() < 100, "{v}");
    // (A generous bound: without the cap, depth 100 would search for hours.)
    assert!(v["time_ms"].as_u64().unwrap() <= 300 + 3000, "{v}");
    // Solve without time_ms is bounded too; 0 is refused as everywhere (issue 34: one
    // meaning, one check, one message).
    let r = s.post(
        "/api/solve",
        r#"{"rule":"freestyle","moves":"h8,h9","vct":true}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["time_ms"].as_u64().unwrap() <= 300 + 3000);
    let r = s.post(
        "/api/solve",
        r#"{"rule":"freestyle","moves":"h8,h9","vct":true,"time_ms":0}"#,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"], "time_ms must be 1..=300 (milliseconds)");
}

#[test]
fn a_client_that_goes_away_stops_its_search() {
    let s = server(&[]);
    let mut st = Stream::open(
        &s,
        "/api/analyze/stream",
        r#"{"rule":"freestyle","moves":"h8,h9","time_ms":30000}"#,
    );
    st.search_id();
    assert_eq!(s.get("/api/health").json()["busy"], true);
    drop(st);
    let start = Instant::now();
    while s.get("/api/health").json()["busy"] == true {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the search went on without its client"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The same for a plain request: the client sends it and closes the connection.
    {
        use std::io::Write;
        let mut sock = s.connect();
        sock.write_all(&web_common::request_bytes(
            "POST",
            "/api/analyze",
            Some(r#"{"rule":"freestyle","moves":"h8,h9","time_ms":30000}"#),
        ))
        .unwrap();
        let start = Instant::now();
        while s.get("/api/health").json()["busy"] == false {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "no search started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let start = Instant::now();
    while s.get("/api/health").json()["busy"] == true {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the search went on without its client"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        s.post("/api/analyze", r#"{"moves":"h8","depth":2}"#).status,
        200
    );
}

#[test]
fn ctrl_c_stops_the_search_and_the_server() {
    let mut s = server(&[]);
    let mut st = Stream::open(
        &s,
        "/api/analyze/stream",
        r#"{"rule":"freestyle","moves":"h8,h9","time_ms":30000}"#,
    );
    st.search_id();
    let start = Instant::now();
    s.interrupt();
    let code = s.wait_exit(Duration::from_secs(15));
    assert_eq!(code, Some(0), "exit status after Ctrl-C");
    assert!(start.elapsed() < Duration::from_secs(15));
    let out: Vec<String> = s.stdout.try_iter().collect();
    assert!(out.iter().any(|l| l == "shutting down"), "{out:?}");
    // The streaming client got its (early) result before the server closed.
    let r = st.finish();
    let evs = events(&r.body);
    assert_eq!(evs.last().unwrap().0, "result", "{evs:?}");
}
