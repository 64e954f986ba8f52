//! What the compiled classes say: class files read from directories and jars (`classfile`,
//! with `constpool`: the byte reader and constant pool they are parsed with; `bootstrap`: what
//! their lambdas and method references run; `escape`: which throwables a method body may keep;
//! `jdk_types`: the JDK's class hierarchy from its `ct.sym`; `lines`: line tables rewritten in
//! place), and which calls change no state whatever the receiver (`purity`: a bytecode scan of
//! the project's, its tests' and its dependencies' classes at `init`, queried by the weaver at
//! `run`).

mod bootstrap;
pub mod classfile;
mod constpool;
mod escape;
pub mod jdk_types;
pub mod lines;
pub mod purity;
