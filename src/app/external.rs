//! The programs registered as algorithms (the External algorithms window), and the threads that
//! talk to them. A program's calls block (up to its time limit), so none runs on the UI thread:
//! each program has worker threads ("lanes") that own its process and run requests in order,
//! and a request comes back as a `Job` the overlays poll like any other background work.
//!
//! Three lanes, each its own process of the same command, so a whole-map audit never holds up
//! the views that follow the pointer: `Interactive` (the FOV comparison, paths), `Audit` (the
//! symmetry audit and its table) and `Play` (the game's views, asked from a turn's thread
//! through a `LaneClient`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::app::overlays::job::{Job, Progress};
use crate::core::Cell;
use crate::core::ext::{ExtError, ExtErrorKind, ExtSpec, Hello, Killer, Log, Program, StartOptions};
use crate::core::fov::OpacityGrid;
use crate::core::path::CostGrid;
use crate::core::sim::ExternalSight;

/// A registered program, for as long as the app runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExtId(pub u32);

/// Which worker of a program serves a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    Interactive = 0,
    Audit = 1,
    Play = 2,
}

/// The time limit of a new entry.
pub(crate) const DEFAULT_TIMEOUT_SECS: f64 = 10.0;

/// What the window shows of a program.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Registered; it starts when first asked.
    Idle,
    Ready(Hello),
    /// It stopped (or never started): the message, until a restart.
    Stopped(String),
}

/// A registered program as saved between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ExtRecord {
    pub(crate) name: String,
    pub(crate) command: String,
    #[serde(default = "default_timeout")]
    pub(crate) timeout_secs: f64,
}

fn default_timeout() -> f64 {
    DEFAULT_TIMEOUT_SECS
}

/// What the window asks of the registry.
#[derive(Clone, Debug, PartialEq)]
pub enum ExtCommand {
    ShowWindow(bool),
    Add { name: String, command: String },
    Remove(ExtId),
    Restart(ExtId),
    SetTimeout(ExtId, f64),
}

/// The map a request needs the program to have: `key` tells whether it already has it (the
/// map's revision, and the door rule for paths).
#[derive(Clone)]
pub(crate) struct MapData {
    pub(crate) key: (u64, u64),
    pub(crate) opacity: Arc<OpacityGrid>,
    pub(crate) costs: Arc<CostGrid>,
}

type Task = Box<dyn FnOnce(&mut Slot) + Send>;

/// A worker's state: the program it owns and the map it sent it.
struct Slot {
    spec: ExtSpec,
    timeout: Duration,
    log: Log,
    status: Arc<Mutex<Status>>,
    killer: Arc<Mutex<Vec<Killer>>>,
    program: Option<Program>,
    sent: Option<(u64, u64)>,
}

impl Slot {
    /// The program, started (and greeted) if it is not running. A program that stopped stays
    /// stopped until the user restarts it: a crashing program is not started again every frame.
    fn program(&mut self) -> Result<&mut Program, ExtError> {
        let stopped = lock(&self.status).clone();
        if let Status::Stopped(why) = stopped {
            return Err(ExtError {
                program: format!("external algorithm `{}` ({})", self.spec.name, self.spec.command),
                message: format!("it is stopped ({why}): restart it"),
                kind: ExtErrorKind::Stopped,
            });
        }
        if self.program.is_none() {
            let options = StartOptions { timeout: self.timeout, echo_stderr: false };
            let program = Program::start(&self.spec, options, self.log.clone())?;
            lock(&self.killer).push(program.killer());
            *lock(&self.status) = Status::Ready(program.hello().clone());
            self.program = Some(program);
        }
        Ok(self.program.as_mut().expect("started above"))
    }
}

struct Worker {
    tasks: mpsc::Sender<Task>,
    /// Tasks sent and not finished.
    pending: Arc<AtomicUsize>,
}

struct Entry {
    id: ExtId,
    spec: ExtSpec,
    timeout: Duration,
    log: Log,
    status: Arc<Mutex<Status>>,
    /// Every process its lanes started, to stop them at once on a restart.
    killers: Arc<Mutex<Vec<Killer>>>,
    lanes: [Option<Worker>; 3],
}

/// The registered programs.
#[derive(Default)]
pub struct Externals {
    entries: Vec<Entry>,
    next_id: u32,
    /// Changes on every restart, registration and removal: the overlays key their external
    /// results on it, so they ask again.
    epoch: u64,
    /// The External algorithms window is open.
    pub window_open: bool,
    /// The last registration refused, and why (shown in the window).
    pub(crate) add_error: Option<String>,
}

impl Externals {
    /// The registry of saved records; a record that is no longer valid (a name that became a
    /// built-in's, a command edited by hand) is left out.
    pub(crate) fn from_records(records: &[ExtRecord]) -> Self {
        let mut out = Self::default();
        for r in records {
            let _ = out.add(&r.name, &r.command, r.timeout_secs);
        }
        out
    }

    pub(crate) fn records(&self) -> Vec<ExtRecord> {
        self.entries
            .iter()
            .map(|e| ExtRecord {
                name: e.spec.name.clone(),
                command: e.spec.command.clone(),
                timeout_secs: e.timeout.as_secs_f64(),
            })
            .collect()
    }

    pub(crate) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Registers a program; the name must be new.
    pub(crate) fn add(&mut self, name: &str, command: &str, timeout_secs: f64) -> Result<ExtId, String> {
        let spec = ExtSpec::new(name, command)?;
        if self.entries.iter().any(|e| e.spec.name == spec.name) {
            return Err(format!("{:?} is registered already", spec.name));
        }
        let id = ExtId(self.next_id);
        self.next_id += 1;
        self.entries.push(Entry {
            id,
            spec,
            timeout: timeout_of(timeout_secs),
            log: Log::default(),
            status: Arc::new(Mutex::new(Status::Idle)),
            killers: Arc::default(),
            lanes: [None, None, None],
        });
        self.epoch += 1;
        Ok(id)
    }

    /// Registers a program given on the command line, replacing one of the same name.
    pub(crate) fn register_for_run(&mut self, spec: &ExtSpec) {
        if let Some(entry) = self.entries.iter().position(|e| e.spec.name == spec.name) {
            let id = self.entries[entry].id;
            self.apply(ExtCommand::Remove(id));
        }
        let _ = self.add(&spec.name, &spec.command, DEFAULT_TIMEOUT_SECS);
    }

    pub(crate) fn apply(&mut self, command: ExtCommand) {
        match command {
            ExtCommand::ShowWindow(open) => self.window_open = open,
            ExtCommand::Add { name, command } => {
                self.add_error = self.add(&name, &command, DEFAULT_TIMEOUT_SECS).err();
            }
            ExtCommand::Remove(id) => {
                if let Some(k) = self.entries.iter().position(|e| e.id == id) {
                    let entry = self.entries.remove(k);
                    stop(&entry);
                    self.epoch += 1;
                }
            }
            ExtCommand::Restart(id) => {
                if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
                    stop(entry);
                    entry.lanes = [None, None, None];
                    entry.log.push("sightline: restart asked");
                    *lock(&entry.status) = Status::Idle;
                    self.epoch += 1;
                }
            }
            ExtCommand::SetTimeout(id, secs) => {
                if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
                    entry.timeout = timeout_of(secs);
                    // The limit is the program's own: its workers start again with it.
                    stop(entry);
                    entry.lanes = [None, None, None];
                    *lock(&entry.status) = Status::Idle;
                    self.epoch += 1;
                }
            }
        }
    }

    /// The registered programs, for the window: id, name, command, time limit, status, log.
    pub fn entries(&self) -> Vec<(ExtId, String, String, f64, Status, Log)> {
        self.entries
            .iter()
            .map(|e| {
                (
                    e.id,
                    e.spec.name.clone(),
                    e.spec.command.clone(),
                    e.timeout.as_secs_f64(),
                    lock(&e.status).clone(),
                    e.log.clone(),
                )
            })
            .collect()
    }

    /// The programs a picker offers: those that compute fields of view (`fov`) or find paths,
    /// by their hello; one not yet started is offered for both.
    pub(crate) fn offering(&self, fov: bool) -> Vec<(ExtId, String)> {
        self.entries
            .iter()
            .filter(|e| match &*lock(&e.status) {
                Status::Ready(hello) => {
                    if fov {
                        hello.fov
                    } else {
                        hello.path
                    }
                }
                _ => true,
            })
            .map(|e| (e.id, e.spec.name.clone()))
            .collect()
    }

    /// A program's name (`(removed)` once it is gone).
    pub(crate) fn name(&self, id: ExtId) -> String {
        self.entries.iter().find(|e| e.id == id).map_or_else(|| "(removed)".into(), |e| e.spec.name.clone())
    }

    /// Whether a request is queued or running: frames keep coming until its answer is in.
    pub(crate) fn busy(&self) -> bool {
        self.entries.iter().flat_map(|e| e.lanes.iter().flatten()).any(|w| w.pending.load(Ordering::Relaxed) > 0)
    }

    /// Runs `work` on program `id`'s `lane`, after sending it `map` if it does not have it. What
    /// goes wrong before `work` (the program does not start, or refuses the map) becomes the
    /// job's result through `fail`. A job dropped before its turn never reaches the program.
    pub(crate) fn run<R: Send + 'static>(
        &mut self,
        id: ExtId,
        lane: Lane,
        map: Option<MapData>,
        total: usize,
        fail: fn(ExtError) -> R,
        work: impl FnOnce(&mut Program, &Progress) -> R + Send + 'static,
    ) -> Job<R> {
        match self.client(id, lane) {
            Some(client) => client.run(map, total, fail, work),
            None => {
                let (job, _, sender) = Job::queued(total);
                let _ = sender.send(fail(ExtError {
                    program: "external algorithm".into(),
                    message: "it was removed from the External algorithms window".into(),
                    kind: ExtErrorKind::Stopped,
                }));
                job
            }
        }
    }

    /// A handle on program `id`'s `lane` that any thread may send requests through (a play
    /// turn's, which asks for views as the monsters move); `None` once it is removed.
    pub(crate) fn client(&mut self, id: ExtId, lane: Lane) -> Option<LaneClient> {
        let entry = self.entries.iter_mut().find(|e| e.id == id)?;
        let worker = entry.lanes[lane as usize].get_or_insert_with(|| {
            spawn_worker(Slot {
                spec: entry.spec.clone(),
                timeout: entry.timeout,
                log: entry.log.clone(),
                status: Arc::clone(&entry.status),
                killer: Arc::clone(&entry.killers),
                program: None,
                sent: None,
            })
        });
        Some(LaneClient {
            tasks: worker.tasks.clone(),
            pending: Arc::clone(&worker.pending),
            name: entry.spec.name.clone(),
        })
    }
}

/// Requests to one lane of one program, from any thread.
#[derive(Clone)]
pub(crate) struct LaneClient {
    tasks: mpsc::Sender<Task>,
    pending: Arc<AtomicUsize>,
    name: String,
}

impl LaneClient {
    /// See [`Externals::run`].
    pub(crate) fn run<R: Send + 'static>(
        &self,
        map: Option<MapData>,
        total: usize,
        fail: fn(ExtError) -> R,
        work: impl FnOnce(&mut Program, &Progress) -> R + Send + 'static,
    ) -> Job<R> {
        let (job, progress, sender) = Job::queued(total);
        let pending = Arc::clone(&self.pending);
        pending.fetch_add(1, Ordering::Relaxed);
        let task: Task = Box::new(move |slot: &mut Slot| {
            if !progress.cancel.load(Ordering::Relaxed) {
                let _ = sender.send(serve(slot, map, &progress, fail, work));
            }
            pending.fetch_sub(1, Ordering::Relaxed);
        });
        if let Err(mpsc::SendError(task)) = self.tasks.send(task) {
            // The worker is gone (a restart or a removal since): the job's result never comes.
            self.pending.fetch_sub(1, Ordering::Relaxed);
            drop(task);
        }
        job
    }
}

/// A program as the game's sight ([`ExternalSight`]): each view a request on its play lane,
/// waited for on the calling thread (a turn's, never the UI's).
pub(crate) struct LaneSight {
    client: LaneClient,
    /// The map last sent, kept while the game's opacity stays the same: a turn asks many views
    /// of one map, which need neither a new copy nor new costs.
    last: Mutex<Option<MapData>>,
}

impl LaneSight {
    pub(crate) fn new(client: LaneClient) -> Self {
        Self { client, last: Mutex::default() }
    }
}

impl ExternalSight for LaneSight {
    fn name(&self) -> String {
        self.client.name.clone()
    }

    fn view(&self, opacity: &OpacityGrid, origin: Cell, radius: Option<u32>) -> Result<Vec<Cell>, ExtError> {
        use crate::core::fov::Opacity as _;
        use std::hash::{Hash, Hasher};
        // The map as the game has it (doors opened in play): sent when it changed.
        let (w, h) = (opacity.width(), opacity.height());
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (w, h).hash(&mut hasher);
        for y in 0..h {
            for x in 0..w {
                opacity.is_opaque(x, y).hash(&mut hasher);
            }
        }
        let key = (hasher.finish(), 1);
        let map = {
            let mut last = lock(&self.last);
            match &*last {
                Some(m) if m.key == key => m.clone(),
                _ => {
                    let mut costs = CostGrid::open(w as u32, h as u32);
                    for y in 0..h {
                        for x in (0..w).filter(|&x| opacity.is_opaque(x, y)) {
                            costs.set_cost(x, y, f32::INFINITY);
                        }
                    }
                    let m = MapData { key, opacity: Arc::new(opacity.clone()), costs: Arc::new(costs) };
                    *last = Some(m.clone());
                    m
                }
            }
        };
        let job = self.client.run(Some(map), 1, Err, move |program, _| program.fov(&[origin], radius, true));
        match job.wait() {
            Some(views) => Ok(views?.into_iter().next().unwrap_or_default()),
            None => Err(ExtError {
                program: format!("external algorithm `{}`", self.client.name),
                message: "it was restarted or removed during the turn".into(),
                kind: ExtErrorKind::Stopped,
            }),
        }
    }
}

/// One request on a worker: the program started, the map sent, then the work. A fatal error
/// marks the program stopped, for the window and the next requests.
fn serve<R>(
    slot: &mut Slot,
    map: Option<MapData>,
    progress: &Progress,
    fail: fn(ExtError) -> R,
    work: impl FnOnce(&mut Program, &Progress) -> R,
) -> R {
    let sent = slot.sent;
    let ready = slot.program().and_then(|program| match &map {
        Some(m) if sent != Some(m.key) => program.set_map(&m.opacity, &m.costs).map(|()| Some(m.key)),
        _ => Ok(sent),
    });
    match ready {
        Ok(sent) => {
            slot.sent = sent;
            let program = slot.program.as_mut().expect("started");
            let result = work(program, progress);
            if let Some(why) = program.stopped() {
                *lock(&slot.status) = Status::Stopped(why.to_string());
                slot.program = None;
                slot.sent = None;
            }
            result
        }
        Err(e) => {
            if e.is_fatal() {
                let why = slot.program.as_ref().and_then(|p| p.stopped()).map_or(e.message.clone(), str::to_string);
                *lock(&slot.status) = Status::Stopped(why);
                slot.program = None;
                slot.sent = None;
            }
            fail(e)
        }
    }
}

fn spawn_worker(mut slot: Slot) -> Worker {
    let (tasks, queue) = mpsc::channel::<Task>();
    std::thread::Builder::new()
        .name(format!("sightline external {}", slot.spec.name))
        .spawn(move || {
            // Ends when the entry drops its sender (a restart or removal); the program goes with
            // the slot, and dropping it stops the process.
            for task in queue {
                task(&mut slot);
            }
        })
        .expect("cannot start a thread");
    Worker { tasks, pending: Arc::default() }
}

/// Stops an entry's processes now: a worker waiting on one returns at once.
fn stop(entry: &Entry) {
    for killer in lock(&entry.killers).drain(..) {
        killer.kill();
    }
}

fn timeout_of(secs: f64) -> Duration {
    Duration::from_secs_f64(if secs.is_finite() { secs.clamp(0.1, 3600.0) } else { DEFAULT_TIMEOUT_SECS })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The External algorithms window: each program with its command, time limit, status, Restart,
/// Remove and its log; a row to register another.
pub(crate) fn external_window_ui(app: &mut crate::app::SightlineApp, ui: &mut egui::Ui) {
    use crate::app::{Command, OverlayCommand};
    if !app.overlays.externals.window_open {
        return;
    }
    let mut open = true;
    let mut commands = Vec::new();
    let push = |commands: &mut Vec<Command>, c: ExtCommand| commands.push(Command::Overlay(OverlayCommand::Ext(c)));
    egui::Window::new("External algorithms").open(&mut open).default_width(520.0).show(ui.ctx(), |ui| {
        ui.label(
            "Programs that speak sightline's protocol (docs/protocol.md) join the built-in algorithms in every picker.",
        );
        for (id, name, command, timeout, status, log) in app.overlays.externals.entries() {
            ui.separator();
            ui.horizontal(|ui| {
                ui.strong(&name);
                ui.monospace(&command);
            });
            ui.horizontal(|ui| {
                let (text, colour) = match &status {
                    Status::Idle => {
                        ("not started (it starts when first asked)".to_string(), ui.visuals().weak_text_color())
                    }
                    Status::Ready(h) => {
                        let provides: Vec<&str> =
                            [(h.fov, "fov"), (h.path, "path")].into_iter().filter(|p| p.0).map(|p| p.1).collect();
                        (
                            format!("running: {} (provides {})", h.name, provides.join(", ")),
                            egui::Color32::from_rgb(90, 210, 120),
                        )
                    }
                    Status::Stopped(why) => (format!("stopped: {why}"), ui.visuals().error_fg_color),
                };
                ui.label(egui::RichText::new(text).color(colour));
            });
            ui.horizontal(|ui| {
                let mut secs = timeout;
                let response = ui.add(egui::DragValue::new(&mut secs).range(0.1..=3600.0).suffix(" s").speed(0.5));
                ui.ctx().accesskit_node_builder(response.id, |n| n.set_label(format!("{name} time limit")));
                ui.label("time limit a request");
                if response.changed() && secs != timeout {
                    push(&mut commands, ExtCommand::SetTimeout(id, secs));
                }
                if ui.button(format!("Restart {name}")).clicked() {
                    push(&mut commands, ExtCommand::Restart(id));
                }
                if ui.button(format!("Remove {name}")).clicked() {
                    push(&mut commands, ExtCommand::Remove(id));
                }
            });
            egui::CollapsingHeader::new(format!("{name} log")).id_salt(("ext log", id.0)).show(ui, |ui| {
                egui::ScrollArea::vertical().max_height(160.0).stick_to_bottom(true).show(ui, |ui| {
                    for line in log.tail(200) {
                        ui.monospace(line);
                    }
                });
            });
        }
        ui.separator();
        let id = egui::Id::unique("sightline external add row");
        let (mut name, mut command): (String, String) = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
        egui::Grid::new("external add").num_columns(2).show(ui, |ui| {
            ui.label("name");
            let r = ui.text_edit_singleline(&mut name);
            ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("new algorithm name"));
            ui.end_row();
            ui.label("command");
            let r = ui.add(
                egui::TextEdit::singleline(&mut command)
                    .hint_text("python3 adapters/minimal/minimal.py")
                    .desired_width(360.0),
            );
            ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("new algorithm command"));
            ui.end_row();
        });
        if ui.button("Add").clicked() {
            push(&mut commands, ExtCommand::Add { name: name.clone(), command: command.clone() });
            name.clear();
            command.clear();
        }
        ui.data_mut(|d| d.insert_temp(id, (name, command)));
        if let Some(e) = &app.overlays.externals.add_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    });
    if !open {
        push(&mut commands, ExtCommand::ShowWindow(false));
    }
    app.commands.extend(commands);
}
