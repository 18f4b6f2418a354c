//! Bot processes: the child and its pipes ([`child`]), its stderr log
//! ([`log`]), and the registry that ends every process group on exit
//! ([`cleanup`]).

pub mod child;
pub mod cleanup;
pub mod log;

pub use child::{Child, MAX_LINE};
pub use log::{Log, SharedLog, MAX_LOG};
