//! Reports: pure functions of stored results (never of a live database).

pub mod browse;
pub mod charts;
mod experiment;
pub mod export;
pub mod html;
pub mod live;
mod page;
pub mod periods;
mod profile;
mod server;
mod sweep;
pub mod text;
