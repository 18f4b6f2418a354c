//! Bot processes: the child and its pipes ([`child`]), its stdout read line
//! by line ([`lines`]), its stderr log
//! ([`log`]), the lines it exchanged with ladder ([`io_log`]), the registry that ends every process group on exit
//! ([`cleanup`]), the sandbox each runs in ([`sandbox`]), and how a process
//! starts with its limits set ([`exec`]); one sandbox for a game of a
//! one-move bot ([`move_host`]); waiting for a pipe ([`wait`]), and reads
//! that block until a deadline ([`alarm`]).

pub mod alarm;
pub mod child;
pub mod cleanup;
pub mod exec;
pub mod io_log;
pub mod lines;
pub mod log;
pub mod move_host;
pub mod sandbox;
pub mod wait;

pub use child::Child;
pub use exec::Limits;
pub use io_log::{IoLog, Level, SharedIoLog};
pub use lines::MAX_LINE;
pub use log::{Log, SharedLog, MAX_LOG};
pub use sandbox::{Mode, Sandbox};
