//! Helpers of the web board tests: a `pbrain-tianyuan serve` process on a free port of
//! 127.0.0.1, and a minimal HTTP/1.1 client over a plain socket (so that tests can send
//! exactly the bytes they want, malformed ones included).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long any socket read may block before the test fails (no hung connection).
pub const IO_TIMEOUT: Duration = Duration::from_secs(60);

/// A running server; killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:port`.
    pub addr: String,
    /// `http://127.0.0.1:port/`.
    pub url: String,
    /// Lines the server printed on stdout after the first.
    pub stdout: mpsc::Receiver<String>,
}

impl Server {
    /// Starts `pbrain-tianyuan serve --port 0` with `extra` arguments and waits for its
    /// address line.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start pbrain-tianyuan serve");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server printed its address");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in '{first}'"))
            .to_string();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Server {
            child,
            addr,
            url,
            stdout: rx,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT (as Ctrl-C does).
    pub fn interrupt(&self) {
        let ok = Command::new("kill")
            .args(["-INT", &self.pid().to_string()])
            .status()
            .expect("run kill")
            .success();
        assert!(ok, "kill -INT failed");
    }

    /// Waits up to `limit` for the process to exit; its exit code, or `None` if it is still
    /// running.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// A connected socket with the test's read timeout.
    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).expect("connect to the server");
        s.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
        s.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
        s
    }

    /// Sends `method path` with an optional JSON body (`Connection: close`) and reads the
    /// whole response.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Response {
        self.raw(request_bytes(method, path, body).as_slice())
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body))
    }

    /// Sends raw bytes and reads the response until the server closes the connection.
    pub fn raw(&self, bytes: &[u8]) -> Response {
        let mut s = self.connect();
        s.write_all(bytes).unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).expect("read the response");
        Response::parse(&buf)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The bytes of a request with `Connection: close`.
pub fn request_bytes(method: &str, path: &str, body: Option<&str>) -> Vec<u8> {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    if let Some(b) = body {
        req.push_str(b);
    }
    req.into_bytes()
}

/// A parsed HTTP response.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (chunked transfer decoded).
    pub body: String,
}

impl Response {
    /// Parses a complete response.
    pub fn parse(buf: &[u8]) -> Response {
        let text = String::from_utf8_lossy(buf).into_owned();
        let (head, rest) = text
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("no complete response head in {text:?}"));
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap();
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        Response {
            status,
            headers,
            body,
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body))
    }
}

/// Decodes a chunked body.
pub fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size_line, rest)) = s.split_once("\r\n") {
        let size = usize::from_str_radix(size_line.split(';').next().unwrap().trim(), 16)
            .unwrap_or_else(|_| panic!("bad chunk size line {size_line:?}"));
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        s = &rest[size..];
        s = s.strip_prefix("\r\n").unwrap_or(s);
    }
    out
}

/// Server-sent events of a body: `(event name, data)` in order.
pub fn events(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in body.split("\n\n") {
        let mut name = String::from("message");
        let mut data = Vec::new();
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
            }
        }
        if !data.is_empty() {
            out.push((name, data.join("\n")));
        }
    }
    out
}

/// A streaming request whose response is read as it comes.
pub struct Stream {
    sock: TcpStream,
    /// Everything read so far (raw, chunk framing included).
    pub raw: Vec<u8>,
}

impl Stream {
    /// Sends a POST to `path` and returns without reading.
    pub fn open(server: &Server, path: &str, body: &str) -> Stream {
        let mut sock = server.connect();
        sock.write_all(&request_bytes("POST", path, Some(body)))
            .unwrap();
        Stream {
            sock,
            raw: Vec::new(),
        }
    }

    /// Reads until the raw bytes contain `needle` (panics after [`IO_TIMEOUT`]).
    pub fn read_until(&mut self, needle: &str) {
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&self.raw).contains(needle) {
            assert!(start.elapsed() < IO_TIMEOUT, "no '{needle}' in time");
            let n = self.sock.read(&mut buf).expect("read the stream");
            assert!(
                n > 0,
                "the stream ended before '{needle}': {}",
                String::from_utf8_lossy(&self.raw)
            );
            self.raw.extend_from_slice(&buf[..n]);
        }
    }

    /// Reads to the end and parses the whole response.
    pub fn finish(mut self) -> Response {
        self.sock
            .read_to_end(&mut self.raw)
            .expect("read the stream");
        Response::parse(&self.raw)
    }

    /// The `id` of the stream's `start` event (reads until it has arrived).
    pub fn search_id(&mut self) -> u64 {
        self.read_until("event: start");
        self.read_until("}");
        let text = String::from_utf8_lossy(&self.raw).into_owned();
        let data = text
            .split("event: start")
            .nth(1)
            .and_then(|t| t.split("data: ").nth(1))
            .and_then(|t| t.split('}').next())
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&format!("{data}}}")).unwrap();
        v["id"].as_u64().unwrap()
    }
}
