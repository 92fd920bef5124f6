//! Reports: pure functions of stored results (never of a live database).

pub mod charts;
pub mod html;
mod server;
pub mod text;
