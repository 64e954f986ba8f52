//! What the compiled classes say: class files read from directories and jars (`classfile`), and
//! which calls change no state whatever the receiver (`purity`: a bytecode scan of the project's,
//! its tests' and its dependencies' classes at `init`, queried by the weaver at `run`).

pub mod classfile;
pub mod purity;
