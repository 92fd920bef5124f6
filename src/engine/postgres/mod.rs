//! PostgreSQL: everything txbench says to it lives in this folder. The client (`client.rs`:
//! connections, placeholders, parameter types, pre-flight, error classes, COPY), the sandbox
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
pub use client::*;
