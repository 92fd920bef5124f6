//! Reports: pure functions of stored results (never of a live database).

pub mod text;
