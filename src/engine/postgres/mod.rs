//! PostgreSQL: everything txbench says to it lives in this folder. The wire protocol
//! (`wire.rs`: startup and authentication, statements prepared once or run once, COPY, binary
//! rows), the session over it (`client.rs`: placeholders, pre-flight, error classes, result
//! cells as neutral values), the server's counters (`metrics.rs`), the sandbox
//! (`sandbox.rs`: initdb, postgresql.conf, the postgres user), and the workloads' SQL
//! (`sql.rs`: pgbench's and sysbench's DDL, txbench_meta; `tpcc.rs`: TPC-C's date type,
//! partitions and PL/pgSQL procedures).

pub mod sql;
pub mod tpcc;

#[cfg(feature = "postgres")]
mod client;
#[cfg(feature = "postgres")]
pub mod metrics;
#[cfg(feature = "postgres")]
pub mod sandbox;
#[cfg(feature = "postgres")]
mod tls;
#[cfg(feature = "postgres")]
pub mod wire;

#[cfg(feature = "postgres")]
pub use client::*;
#[cfg(feature = "postgres")]
pub use wire::{Row, Statement};
