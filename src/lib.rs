//! patchval library root.
pub mod agent;
pub mod exit;
pub mod jvm;
pub mod model;
pub mod patchset;
pub mod pool;
pub mod weave;
