//! Work that runs off the UI thread: one thread per job, with progress, cancel and a result the
//! UI polls each frame (the UI never waits on it).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

thread_local! {
    /// The hold on the jobs this thread starts, while a test holds them (see [`hold_jobs`]).
    static HOLD: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Holds the jobs this thread starts from now on before they begin their work, until the
/// returned guard is dropped (or they are cancelled): a test then sees a job running, and knows
/// it has not finished, however fast the machine. Other threads' jobs (other tests) go on.
pub fn hold_jobs() -> JobHold {
    let held = Arc::new(AtomicBool::new(true));
    HOLD.with(|h| *h.borrow_mut() = Some(Arc::clone(&held)));
    JobHold(held)
}

/// Jobs held by [`hold_jobs`]; dropping it lets them start.
pub struct JobHold(Arc<AtomicBool>);

impl Drop for JobHold {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
        HOLD.with(|h| h.borrow_mut().take());
    }
}

/// What a running job shares with the UI.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    /// Units of work done so far (out of the job's `total`).
    pub(crate) done: AtomicUsize,
    /// Set by the UI; the job checks it and stops early.
    pub(crate) cancel: AtomicBool,
}

/// A computation on its own thread, producing one `T`.
pub(crate) struct Job<T> {
    progress: Arc<Progress>,
    total: usize,
    receiver: mpsc::Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread. `total` is how many units `work` will count in `done`.
    pub(crate) fn spawn(total: usize, work: impl FnOnce(&Progress) -> T + Send + 'static) -> Self {
        let progress = Arc::new(Progress::default());
        let (sender, receiver) = mpsc::channel();
        let shared = Arc::clone(&progress);
        let hold = HOLD.with(|h| h.borrow().clone());
        thread::Builder::new()
            .name("sightline overlay job".into())
            .spawn(move || {
                while hold.as_ref().is_some_and(|h| h.load(Ordering::Acquire)) && !shared.cancel.load(Ordering::Relaxed)
                {
                    thread::sleep(std::time::Duration::from_millis(1));
                }
                // The receiver is gone when the UI dropped the job: nobody wants the result.
                let _ = sender.send(work(&shared));
            })
            .expect("cannot start a thread");
        Self { progress, total: total.max(1), receiver }
    }

    /// A job whose work runs elsewhere (an external program's worker thread): the caller hands
    /// the progress and the sender to that work, and keeps the job.
    pub(crate) fn queued(total: usize) -> (Self, Arc<Progress>, mpsc::Sender<T>) {
        let progress = Arc::new(Progress::default());
        let (sender, receiver) = mpsc::channel();
        (Self { progress: Arc::clone(&progress), total: total.max(1), receiver }, progress, sender)
    }

    /// The result, once (`None` while the job runs).
    pub(crate) fn poll(&self) -> Option<T> {
        self.receiver.try_recv().ok()
    }

    /// Blocks until the job is done (for tests and headless runs).
    pub(crate) fn wait(&self) -> Option<T> {
        self.receiver.recv().ok()
    }

    /// Done, from 0 to 1.
    pub(crate) fn fraction(&self) -> f32 {
        (self.progress.done.load(Ordering::Relaxed) as f32 / self.total as f32).min(1.0)
    }

    /// Asks the job to stop; its result (usually a "cancelled" error) is dropped with it.
    pub(crate) fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        // A replaced or abandoned job stops working for nobody.
        self.progress.cancel.store(true, Ordering::Relaxed);
    }
}
