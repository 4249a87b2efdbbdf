//! A running external program: started, greeted, fed the map, asked for views and paths, each
//! answer checked before anyone uses it.
//!
//! Three threads serve the child so that no call can block forever: one writes its stdin (a
//! program that stops reading cannot stall us on a full pipe), one reads its stdout line by line,
//! one collects its stderr into the [`Log`]. The caller waits for each reply on a channel with
//! the time limit; a program past it is killed.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::ExtSpec;
use super::protocol::{self, ExtPath, Hello, Reply};
use crate::core::fov::OpacityGrid;
use crate::core::model::geometry::Cell;
use crate::core::path::{CostGrid, MoveRules};

/// A reply line longer than this is refused: a program that never ends its line would otherwise
/// take all memory. (Every view of a 4096² map at an unlimited radius fits in far less.)
pub(crate) const MAX_LINE: usize = 1 << 30;

/// The stderr lines kept.
const LOG_LINES: usize = 2000;

/// How long a program may take to answer, unless told otherwise.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// What a program's stderr said, and what sightline noted about it (started, stopped, why).
#[derive(Clone, Debug, Default)]
pub struct Log(Arc<Mutex<VecDeque<String>>>);

impl Log {
    pub fn push(&self, line: impl Into<String>) {
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == LOG_LINES {
            lines.pop_front();
        }
        lines.push_back(line.into());
    }

    /// Every line kept, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect()
    }

    /// The last `n` lines.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        lines.iter().skip(lines.len().saturating_sub(n)).cloned().collect()
    }
}

/// Something a program did wrong, or could not do, in words that name it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{program}: {message}")]
pub struct ExtError {
    /// `name` (`command`).
    pub program: String,
    pub message: String,
    pub kind: ExtErrorKind,
}

/// What became of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtErrorKind {
    /// It is stopped (it did not start, exited, hung or broke the protocol): only a restart helps.
    Stopped,
    /// It answered this request with an error of its own (rules it cannot follow, say).
    Refused,
    /// It answered this request wrongly (cells off the map, a duplicate, a path through a wall).
    Invalid,
}

impl ExtError {
    pub fn is_fatal(&self) -> bool {
        self.kind == ExtErrorKind::Stopped
    }
}

/// How to run a program.
#[derive(Clone, Debug)]
pub struct StartOptions {
    /// The time limit of each request (and of the greeting).
    pub timeout: Duration,
    /// Also copy its stderr to ours, each line prefixed by its name (the CLI's choice; the app
    /// shows the log instead).
    pub echo_stderr: bool,
}

impl Default for StartOptions {
    fn default() -> Self {
        Self { timeout: DEFAULT_TIMEOUT, echo_stderr: false }
    }
}

/// Where the time of requests went: sightline's own work (writing requests, reading and
/// checking replies) against the whole round trip, for the protocol's bench.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub requests: u64,
    /// From the call to its result.
    pub total: Duration,
    /// sightline's share of `total`: encoding the request, parsing and checking the reply.
    pub ours: Duration,
}

/// What stdout's reader hands over.
enum Incoming {
    Line(String),
    TooLong,
    Closed,
    Failed(std::io::Error),
}

/// The map as last sent: replies are checked against it.
struct SentMap {
    hash: u64,
    opacity: OpacityGrid,
    costs: CostGrid,
}

/// A running program. Dropping it kills the program.
pub struct Program {
    spec: ExtSpec,
    options: StartOptions,
    /// Shared with [`Killer`]s: another thread may stop a program that hangs.
    child: Arc<Mutex<Option<Child>>>,
    input: Option<Sender<Vec<u8>>>,
    replies: Option<Receiver<Incoming>>,
    log: Log,
    hello: Hello,
    next_id: u64,
    map: Option<SentMap>,
    /// Why the program stopped, once it has.
    stopped: Option<String>,
    timings: Timings,
    stamps: protocol::Stamps,
}

impl Program {
    /// Starts the program and greets it. `log` collects its stderr (pass the same log again on a
    /// restart to keep one history).
    pub fn start(spec: &ExtSpec, options: StartOptions, log: Log) -> Result<Self, ExtError> {
        let mut program = Self {
            spec: spec.clone(),
            options,
            child: Arc::default(),
            input: None,
            replies: None,
            log,
            hello: Hello { name: spec.name.clone(), fov: false, path: false },
            next_id: 1,
            map: None,
            stopped: Some("not started".into()),
            timings: Timings::default(),
            stamps: protocol::Stamps::default(),
        };
        program.launch()?;
        Ok(program)
    }

    fn launch(&mut self) -> Result<(), ExtError> {
        let argv = ExtSpec::new(&self.spec.name, &self.spec.command)
            .map(|s| s.argv())
            .map_err(|e| self.error(format!("cannot start it: {e}"), ExtErrorKind::Stopped))?;
        self.log.push(format!("sightline: starting {}", self.spec.command));
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.error(format!("cannot start {:?}: {e}", argv[0]), ExtErrorKind::Stopped))?;
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        *lock(&self.child) = Some(child);
        self.input = stdin.map(spawn_writer);
        self.replies = stdout.map(spawn_reader);
        if let Some(stderr) = stderr {
            spawn_stderr(stderr, self.log.clone(), self.options.echo_stderr.then(|| self.spec.name.clone()));
        }
        self.stopped = None;
        self.map = None;
        let reply = self.exchange("hello", None, protocol::hello_request())?;
        self.hello = protocol::read_hello(reply).map_err(|m| self.fail(m))?;
        self.log.push(format!(
            "sightline: {} speaks protocol 1 and provides{}{}",
            self.hello.name,
            if self.hello.fov { " fov" } else { "" },
            if self.hello.path { " path" } else { "" }
        ));
        Ok(())
    }

    /// Stops the program if it runs, and starts it again (the map is sent again when next needed).
    pub fn restart(&mut self) -> Result<(), ExtError> {
        self.kill("restarted");
        self.launch()
    }

    /// A handle that stops the running program from any thread: a call waiting on it then ends
    /// at once with "exited" rather than at its time limit.
    pub fn killer(&self) -> Killer {
        Killer(Arc::clone(&self.child))
    }

    pub fn spec(&self) -> &ExtSpec {
        &self.spec
    }

    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Why it stopped, if it has (then every request fails until [`Program::restart`]).
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The time of the `fov` and `path` requests so far.
    pub fn timings(&self) -> Timings {
        self.timings
    }

    pub fn set_timeout(&mut self, timeout: Duration) {
        self.options.timeout = timeout;
    }

    /// Sends the map, unless the program already has this one. `costs` must have the opacity's
    /// size: the cost of entering each cell, infinite where it cannot be walked.
    pub fn set_map(&mut self, opacity: &OpacityGrid, costs: &CostGrid) -> Result<(), ExtError> {
        let message = protocol::map_request(opacity, costs);
        let hash = protocol::hash(&message);
        if self.map.as_ref().is_some_and(|m| m.hash == hash) {
            return Ok(());
        }
        self.map = None;
        self.exchange("map", None, message)?;
        self.map = Some(SentMap { hash, opacity: opacity.clone(), costs: costs.clone() });
        Ok(())
    }

    /// The views from `origins`, one list of visible cells each (checked: on the map, no cell
    /// twice). The map must have been sent.
    pub fn fov(
        &mut self,
        origins: &[Cell],
        radius: Option<u32>,
        light_walls: bool,
    ) -> Result<Vec<Vec<Cell>>, ExtError> {
        if !self.hello.fov {
            return Err(self.error(
                "it does not compute fields of view (its hello did not list \"fov\")".into(),
                ExtErrorKind::Invalid,
            ));
        }
        let (w, h) = self.sent_size()?;
        let id = self.take_id();
        let started = Instant::now();
        let request = protocol::fov_request(id, origins, radius, light_walls);
        self.timings.ours += started.elapsed();
        let reply = self.exchange("fov", Some(id), request)?;
        let checking = Instant::now();
        let views =
            protocol::read_fov(reply, id, origins, (w, h), &mut self.stamps).map_err(|e| self.reply_error(e))?;
        self.timings.ours += checking.elapsed();
        self.timings.total += started.elapsed();
        self.timings.requests += 1;
        Ok(views)
    }

    /// A path from `from` to `to` under `rules` on the map sent (checked: a walk the rules
    /// allow, from `from` to `to`).
    pub fn path(&mut self, from: Cell, to: Cell, rules: &MoveRules) -> Result<ExtPath, ExtError> {
        if !self.hello.path {
            return Err(
                self.error("it does not find paths (its hello did not list \"path\")".into(), ExtErrorKind::Invalid)
            );
        }
        self.sent_size()?;
        let id = self.take_id();
        let reply = self.exchange("path", Some(id), protocol::path_request(id, from, to, rules))?;
        let costs = &self.map.as_ref().expect("checked by sent_size").costs;
        protocol::read_path(reply, id, from, to, rules, costs).map_err(|e| self.reply_error(e))
    }

    fn sent_size(&self) -> Result<(i32, i32), ExtError> {
        use crate::core::fov::Opacity as _;
        match &self.map {
            Some(m) => Ok((m.opacity.width(), m.opacity.height())),
            None => Err(self.error("no map was sent to it yet".into(), ExtErrorKind::Invalid)),
        }
    }

    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// `name` (`command`): how messages name the program.
    fn who(&self) -> String {
        format!("external algorithm `{}` ({})", self.spec.name, self.spec.command)
    }

    fn error(&self, message: String, kind: ExtErrorKind) -> ExtError {
        ExtError { program: self.who(), message, kind }
    }

    /// The program broke the protocol: stop it.
    fn fail(&mut self, message: String) -> ExtError {
        self.kill(&message);
        self.error(message, ExtErrorKind::Stopped)
    }

    fn reply_error(&mut self, e: protocol::ReplyError) -> ExtError {
        match e {
            protocol::ReplyError::Broken(m) => self.fail(m),
            protocol::ReplyError::Refused(m) => self.error(m, ExtErrorKind::Refused),
            protocol::ReplyError::Wrong(m) => self.error(m, ExtErrorKind::Invalid),
        }
    }

    /// Writes one request and waits for its reply line (blank lines skipped).
    fn exchange(&mut self, what: &str, id: Option<u64>, request: String) -> Result<Reply, ExtError> {
        if let Some(why) = &self.stopped {
            return Err(self.error(format!("it is stopped ({why}): restart it"), ExtErrorKind::Stopped));
        }
        let request_name = match id {
            Some(id) => format!("{what} request {id}"),
            None => format!("{what} request"),
        };
        let mut bytes = request.into_bytes();
        bytes.push(b'\n');
        // A send fails only once the writer has stopped (the program closed its stdin): the
        // reader then sees the end too, and says why below.
        let _ = self.input.as_ref().map(|tx| tx.send(bytes));
        let deadline = Instant::now() + self.options.timeout;
        let line = loop {
            let Some(replies) = &self.replies else {
                return Err(self.fail("its stdout is not a pipe".into()));
            };
            let incoming = replies.recv_timeout(deadline.saturating_duration_since(Instant::now()));
            match incoming {
                Ok(Incoming::Line(line)) if line.trim().is_empty() => continue,
                Ok(Incoming::Line(line)) => break line,
                Ok(Incoming::TooLong) => {
                    return Err(self.fail(format!(
                        "its answer to the {request_name} is a line longer than {} MiB",
                        MAX_LINE >> 20
                    )));
                }
                Ok(Incoming::Failed(e)) => {
                    return Err(self.fail(format!("its answer to the {request_name} cannot be read: {e}")));
                }
                Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    let tail = self.stderr_tail();
                    return Err(self.fail(format!("it {status} before answering the {request_name}{tail}")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let secs = self.options.timeout.as_secs_f64();
                    return Err(self.fail(format!(
                        "it did not answer the {request_name} within {secs} s (the time limit), so it was stopped"
                    )));
                }
            }
        };
        let parsing = Instant::now();
        let reply = protocol::parse_reply(&line, what, id).map_err(|e| self.reply_error(e));
        self.timings.ours += parsing.elapsed();
        reply
    }

    /// How the program ended, waiting a moment for it to finish after closing its output.
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            let mut child = lock(&self.child);
            let Some(child) = child.as_mut() else { return "was stopped".into() };
            match child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("exited with status {code}"),
                        None => format!("was ended by a signal ({status})"),
                    };
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return "closed its output".into(),
            }
        }
    }

    /// The end of its stderr, for a message: the cause is usually there (a traceback).
    fn stderr_tail(&self) -> String {
        // Let the stderr reader catch up with what the program wrote before it exited.
        std::thread::sleep(Duration::from_millis(50));
        let tail: Vec<String> = self.log.tail(4).into_iter().filter(|l| !l.starts_with("sightline: ")).collect();
        if tail.is_empty() { String::new() } else { format!("; its stderr ends: {}", tail.join(" | ")) }
    }

    fn kill(&mut self, why: &str) {
        Killer(Arc::clone(&self.child)).kill();
        self.input = None;
        self.replies = None;
        self.map = None;
        if self.stopped.is_none() {
            self.log.push(format!("sightline: stopped it: {why}"));
        }
        self.stopped = Some(why.to_string());
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        Killer(Arc::clone(&self.child)).kill();
    }
}

/// Stops a [`Program`]'s process from another thread ([`Program::killer`]).
#[derive(Clone)]
pub struct Killer(Arc<Mutex<Option<Child>>>);

impl Killer {
    pub fn kill(&self) {
        if let Some(mut child) = lock(&self.0).take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A lock that a panic elsewhere does not poison for us: the child is still there to kill.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn spawn_writer(mut stdin: ChildStdin) -> Sender<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        for bytes in rx {
            if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
                break;
            }
        }
    });
    tx
}

fn spawn_reader(stdout: impl Read + Send + 'static) -> Receiver<Incoming> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, stdout);
        loop {
            let incoming = match read_line(&mut reader) {
                Ok(Some(line)) => Incoming::Line(line),
                Ok(None) => Incoming::Closed,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData && e.to_string() == "too long" => {
                    Incoming::TooLong
                }
                Err(e) => Incoming::Failed(e),
            };
            let last = !matches!(incoming, Incoming::Line(_));
            if tx.send(incoming).is_err() || last {
                break;
            }
        }
    });
    rx
}

/// One line without its end, at most [`MAX_LINE`] bytes; `None` at the end of the stream.
fn read_line(reader: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(if line.is_empty() { None } else { Some(into_text(line)?) });
        }
        if let Some(end) = available.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&available[..end]);
            reader.consume(end + 1);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(into_text(line)?));
        }
        let n = available.len();
        line.extend_from_slice(available);
        reader.consume(n);
        if line.len() > MAX_LINE {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "too long"));
        }
    }
}

fn into_text(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 ({e})")))
}

fn spawn_stderr(stderr: impl Read + Send + 'static, log: Log, echo: Option<String>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stderr);
        let mut line = Vec::new();
        loop {
            line.clear();
            // Lines are cut at 64 KiB for the log: stderr is for people.
            match reader.by_ref().take(64 * 1024).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']);
                    if let Some(name) = &echo {
                        eprintln!("[{name}] {text}");
                    }
                    log.push(text);
                }
            }
        }
    });
}
