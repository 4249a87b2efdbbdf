//! Algorithms from outside the process: any program, in any language, that answers sightline's
//! JSON-lines protocol (version 1, `docs/protocol.md`) becomes an FOV algorithm or a search that
//! sightline shows, audits and checks beside its own.
//!
//! - [`ExtSpec`]: a program registered under a name (`--ext NAME=COMMAND`).
//! - [`Program`]: the running program. It is sent the map, asked for many views at once or for
//!   a path; every reply is checked (cells on the map, no duplicates, a path that is a walk the
//!   rules allow) before it is returned, and a program that exits, hangs past its time limit or
//!   breaks the protocol is stopped with an [`ExtError`] that names it and quotes what it sent.
//!
//! Nothing here blocks without a limit, and nothing a program sends can panic sightline.

mod command;
mod program;
mod protocol;

pub use command::ExtSpec;
pub use program::{ExtError, ExtErrorKind, Killer, Log, Program, StartOptions, Timings};
pub use protocol::{ExtPath, Hello, VERSION, diagonal_name};
