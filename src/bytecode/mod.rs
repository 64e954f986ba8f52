//! What the compiled classes say: class files read from directories and jars (`classfile`, with
//! `constpool`: the byte reader and constant pool they are parsed with; `jdk_types`: the JDK's
//! class hierarchy from its `ct.sym`), and which calls change no
//! state whatever the receiver (`purity`: a bytecode scan of the project's,
//! its tests' and its dependencies' classes at `init`, queried by the weaver at `run`).

pub mod classfile;
mod constpool;
pub mod jdk_types;
pub mod purity;
