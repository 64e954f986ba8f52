//! patchval: validates candidate patches of Java program repair tools the way plain validation
//! would (javac + JUnit), fast, with mutant schemata and embedded JVMs. Modules in data-flow order.

pub mod agent;
pub mod bench;
pub mod bytecode;
pub mod cli;
pub mod compile;
pub mod core;
pub mod exit;
pub mod fuzz;
pub mod generate;
pub mod init;
pub mod model;
pub mod page;
pub mod patchset;

pub mod locate;
pub mod merge;
pub mod pool;
pub mod progress;
pub mod project;
pub mod protocol;
pub mod records;
pub mod report;
pub mod rules;
pub mod run;
pub mod schedule;
pub mod serve;
pub mod shard;
pub mod stop;
pub mod technique;
pub mod toolchain;
pub mod warm_check;
pub mod weave;
pub mod workdir;
pub mod worker;
