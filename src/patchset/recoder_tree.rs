//! Recoder's printed AST (the `code` field of its candidate records) read back into Java text.
//!
//! Recoder prints a javalang tree as tokens: a token other than `^` opens a node under the current
//! one, `^` closes it, and a leaf carries `_ter` (`member x_ter ^ ^`). Node names alternate between
//! javalang classes (`MethodInvocation`) and their attributes (`member`, `arguments`). The text
//! keeps the shape Recoder's evaluation writes into the file: no indentation, each statement ends
//! with `;\n`, conditions are `(c)`, binary operations are fully parenthesised, and an `if` without
//! a then-statement is only its head `if(c){\n` (Recoder closes that block itself; when more
//! statements follow it under `root`, they go inside and the block is closed after them). A root
//! `condition` (a rewritten if-condition) becomes the head `if(c){\n`, a root `control` the head of
//! a `for`. Recoder's placeholder for string and char literals, `<string>`, becomes `"null"`, as
//! its evaluation does when the old line suggests nothing better. Where Recoder's printer would
//! write invalid Java (or nothing, as for `throw` and `assert`), the text is the Java the node
//! means; what it cannot print at all (switch, lambdas, anonymous classes) is an error.

#[path = "recoder_expr.rs"]
mod expr;
use expr::{dims, expr, top_expr, ty};

/// Trees deeper than this are refused rather than printed (the printer recurses).
const MAX_DEPTH: usize = 500;

/// Boxed, so that the printer's recursion keeps small stack frames.
type Res<T> = Result<T, Box<TreeError>>;

/// Why a printed tree cannot be read back into Java text: what is malformed, or the node the
/// printer cannot print. Names are javalang's (classes and attributes, `_ter` left out).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error("not a Recoder tree: the first token is not `root`")]
    NotATree,
    #[error("token `{0}` after the root was closed")]
    AfterRoot(String),
    /// Deeper than the printer goes (the limit).
    #[error("tree deeper than {0} nodes")]
    TooDeep(usize),
    #[error("empty tree")]
    Empty,
    #[error("`{node}` lacks `{attr}`")]
    Lacks { node: String, attr: String },
    #[error("`{node}` holds {count} nodes, not one")]
    NotOne { node: String, count: usize },
    #[error("unexpected `{attr}` in `{node}`")]
    Unexpected { attr: String, node: String },
    #[error("`{attr}` twice in `{node}`")]
    Twice { attr: String, node: String },
    #[error("empty name")]
    EmptyName,
    #[error("placeholder `<empty>` has no Java text")]
    EmptyPlaceholder,
    #[error("`{attr}` holds `{node}`, not a name")]
    NotAName { attr: String, node: String },
    #[error("unsupported node `{0}`")]
    Unsupported(String),
    #[error("a variable declaration without declarators")]
    NoDeclarators,
    #[error("a type dimension holds `{0}`")]
    BadDimension(String),
    #[error("a type argument without a type")]
    UntypedArgument,
}
type Printer = fn(&Node) -> Res<String>;

/// Attributes javalang prints that make no difference here (a statement's `label` is printed by
/// [`stmt`]).
const IGNORED: [&str; 3] = ["annotations", "documentation", "label"];

struct Node<'a> {
    name: &'a str,
    kids: Vec<Node<'a>>,
}

impl<'a> Node<'a> {
    /// The javalang class (or the text of a leaf), without the `_ter` suffix.
    fn kind(&self) -> &'a str {
        self.name.strip_suffix("_ter").unwrap_or(self.name)
    }
    fn attr(&self, name: &str) -> Option<&Node<'a>> {
        self.kids.iter().find(|k| k.name == name)
    }
    fn need(&self, name: &str) -> Res<&Node<'a>> {
        self.attr(name).ok_or_else(|| {
            Box::new(TreeError::Lacks {
                node: self.kind().into(),
                attr: name.into(),
            })
        })
    }
    /// The nodes an attribute holds (none if it is absent).
    fn kids(&self, name: &str) -> &[Node<'a>] {
        self.attr(name).map_or(&[], |a| &a.kids)
    }
    /// The one node an attribute node holds.
    fn only(&self) -> Res<&Node<'a>> {
        match self.kids.as_slice() {
            [k] => Ok(k),
            ks => Err(Box::new(TreeError::NotOne {
                node: self.name.into(),
                count: ks.len(),
            })),
        }
    }
    fn one(&self, name: &str) -> Res<&Node<'a>> {
        self.need(name)?.only()
    }
    /// [`Node::check`] for an expression, which may also carry javalang's `Primary` attributes.
    fn check_expr(&self, allowed: &[&str]) -> Res<()> {
        let decor = [
            "prefix_operators",
            "postfix_operators",
            "qualifier",
            "selectors",
        ];
        self.check(&[allowed, &decor[..]].concat())
    }
    /// Refuses attributes the printer does not know for this node, and repeated ones.
    fn check(&self, allowed: &[&str]) -> Res<()> {
        for (i, k) in self.kids.iter().enumerate() {
            if !allowed.contains(&k.name) && !IGNORED.contains(&k.name) {
                return Err(Box::new(TreeError::Unexpected {
                    attr: k.name.into(),
                    node: self.kind().into(),
                }));
            }
            if self.kids.iter().take(i).any(|p| p.name == k.name) {
                return Err(Box::new(TreeError::Twice {
                    attr: k.name.into(),
                    node: self.kind().into(),
                }));
            }
        }
        Ok(())
    }
}

/// Whether `code` is in Recoder's printed-AST form (starts with the token `root` and closes nodes with `^`) rather than Java text.
pub fn is_tree(code: &str) -> bool {
    let mut tokens = code.split_whitespace();
    tokens.next() == Some("root") && tokens.any(|t| t == "^")
}

/// The Java text of the statements under `root`, as Recoder's evaluation writes them into the file.
/// Err names the node that cannot be printed (e.g. "unsupported node `SwitchStatement`") or what is malformed.
pub fn to_java(code: &str) -> Result<String, TreeError> {
    print_root(code).map_err(|e| *e)
}

fn print_root(code: &str) -> Res<String> {
    let root = parse(code)?;
    let mut out = String::new();
    let mut open = 0;
    for (i, k) in root.kids.iter().enumerate() {
        let head_only = k.kind() == "IfStatement"
            && k.attr("then_statement").is_none()
            && k.attr("else_statement").is_none();
        out += &match k.kind() {
            "condition" => format!("if{}{{\n", cond(k)?),
            "control" => format!("{}{{\n", for_head(k.only()?)?),
            _ if head_only => {
                k.check(&["condition"])?;
                open += usize::from(i + 1 < root.kids.len());
                format!("if{}{{\n", cond(k.need("condition")?)?)
            }
            _ => stmt(k)?,
        };
    }
    Ok(out + &"}\n".repeat(open))
}

/// Builds the tree without recursion; closing `^` missing at the end are supplied, extra ones
/// after the root closed are ignored.
fn parse(code: &str) -> Res<Node<'_>> {
    let mut tokens = code.split_whitespace();
    if tokens.next() != Some("root") {
        return Err(Box::new(TreeError::NotATree));
    }
    let mut stack = vec![Node {
        name: "root",
        kids: vec![],
    }];
    let mut closed = false;
    for t in tokens {
        if t == "^" {
            closed |= stack.len() == 1;
            close(&mut stack);
        } else if closed {
            return Err(Box::new(TreeError::AfterRoot(t.into())));
        } else if stack.len() >= MAX_DEPTH {
            return Err(Box::new(TreeError::TooDeep(MAX_DEPTH)));
        } else {
            stack.push(Node {
                name: t,
                kids: vec![],
            });
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    stack.pop().ok_or_else(|| Box::new(TreeError::Empty))
}

/// Moves the innermost open node under its parent (the root stays open).
fn close(stack: &mut Vec<Node<'_>>) {
    if stack.len() > 1 {
        if let Some(n) = stack.pop() {
            if let Some(parent) = stack.last_mut() {
                parent.kids.push(n);
            }
        }
    }
}

/// The text of a leaf, with javalang's placeholders turned back into Java.
fn word(raw: &str) -> Res<String> {
    match raw {
        "" => Err(Box::new(TreeError::EmptyName)),
        "<string>" => Ok("\"null\"".into()),
        "<empty>" => Err(Box::new(TreeError::EmptyPlaceholder)),
        s => Ok(s.strip_suffix("^<>").map_or(s.into(), |p| format!("{p}^"))),
    }
}

/// The texts of an attribute's leaves (`modifiers final_ter ^ static_ter ^`).
fn words(attr: &Node) -> Res<Vec<String>> {
    let leaf = |k: &Node| {
        if k.kids.is_empty() {
            word(k.kind())
        } else {
            Err(Box::new(TreeError::NotAName {
                attr: attr.name.into(),
                node: k.kind().into(),
            }))
        }
    };
    attr.kids.iter().map(leaf).collect()
}

/// The text of an attribute holding one leaf (`member x_ter ^`).
fn text(attr: &Node) -> Res<String> {
    attr.only()?;
    Ok(words(attr)?.concat())
}

fn join(nodes: &[Node], sep: &str, print: Printer) -> Res<String> {
    let mut out = String::new();
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            out += sep;
        }
        out += &print(n)?;
    }
    Ok(out)
}

fn unsupported(n: &Node) -> Box<TreeError> {
    Box::new(TreeError::Unsupported(n.kind().into()))
}

fn cond(attr: &Node) -> Res<String> {
    Ok(format!("({})", expr(attr.only()?)?))
}

fn stmt(n: &Node) -> Res<String> {
    // One printer per kind keeps the recursion's stack frames small.
    let print: Printer = match n.kind() {
        "StatementExpression" => expr_stmt,
        "LocalVariableDeclaration" => |n| Ok(var_decl(n)? + ";\n"),
        "IfStatement" => if_stmt,
        "ReturnStatement" | "ThrowStatement" => exit_stmt,
        "BreakStatement" | "ContinueStatement" => jump,
        "AssertStatement" => assert_stmt,
        "WhileStatement" | "DoStatement" | "ForStatement" => loop_stmt,
        "BlockStatement" => block,
        "Statement" => |n| n.check(&[]).map(|()| ";\n".into()),
        "SynchronizedStatement" => sync_stmt,
        "TryStatement" => try_stmt,
        _ => return Err(unsupported(n)),
    };
    match n.attr("label") {
        Some(l) => Ok(format!("{}: {}", text(l)?, print(n)?)),
        None => print(n),
    }
}

fn stmts(nodes: &[Node]) -> Res<String> {
    join(nodes, "", stmt)
}

/// The statements of a body or branch attribute; a block's braces are the caller's.
fn branch(attr: &Node) -> Res<String> {
    match attr.kids.as_slice() {
        [b] if b.kind() == "BlockStatement" && b.attr("label").is_none() => {
            b.check(&["statements"])?;
            stmts(b.kids("statements"))
        }
        ks => stmts(ks),
    }
}

fn expr_stmt(n: &Node) -> Res<String> {
    n.check(&["expression"])?;
    Ok(top_expr(n.one("expression")?)? + ";\n")
}

fn if_stmt(n: &Node) -> Res<String> {
    n.check(&["condition", "then_statement", "else_statement"])?;
    let head = format!("if{}{{\n", cond(n.need("condition")?)?);
    let then = n.attr("then_statement").map_or(Ok(String::new()), branch)?;
    match n.attr("else_statement") {
        Some(e) => Ok(format!("{head}{then}}}else{{\n{}}}\n", branch(e)?)),
        None => Ok(format!("{head}{then}}}\n")),
    }
}

/// `return x;` or `throw x;`.
fn exit_stmt(n: &Node) -> Res<String> {
    n.check(&["expression"])?;
    let word = n.kind().trim_end_matches("Statement").to_lowercase();
    match n.attr("expression") {
        Some(e) => Ok(format!("{word} {};\n", expr(e.only()?)?)),
        None if word == "return" => Ok("return;\n".into()),
        None => Err(Box::new(TreeError::Lacks {
            node: "ThrowStatement".into(),
            attr: "expression".into(),
        })),
    }
}

fn jump(n: &Node) -> Res<String> {
    n.check(&["goto"])?;
    let word = n.kind().trim_end_matches("Statement").to_lowercase();
    match n.attr("goto") {
        Some(l) => Ok(format!("{word} {};\n", text(l)?)),
        None => Ok(format!("{word};\n")),
    }
}

fn assert_stmt(n: &Node) -> Res<String> {
    n.check(&["condition", "value"])?;
    let c = expr(n.one("condition")?)?;
    match n.attr("value") {
        Some(v) => Ok(format!("assert {c} : {};\n", expr(v.only()?)?)),
        None => Ok(format!("assert {c};\n")),
    }
}

/// `while(c){...}`, `do{...}while(c);` or `for(...){...}`.
fn loop_stmt(n: &Node) -> Res<String> {
    let body = n.attr("body").map_or(Ok(String::new()), branch)?;
    match n.kind() {
        "ForStatement" => {
            n.check(&["control", "body"])?;
            Ok(format!("{}{{\n{body}}}\n", for_head(n.one("control")?)?))
        }
        "DoStatement" => {
            n.check(&["condition", "body"])?;
            Ok(format!(
                "do{{\n{body}}}while{};\n",
                cond(n.need("condition")?)?
            ))
        }
        _ => {
            n.check(&["condition", "body"])?;
            Ok(format!(
                "while{}{{\n{body}}}\n",
                cond(n.need("condition")?)?
            ))
        }
    }
}

fn block(n: &Node) -> Res<String> {
    n.check(&["statements"])?;
    Ok(format!("{{\n{}}}\n", stmts(n.kids("statements"))?))
}

fn sync_stmt(n: &Node) -> Res<String> {
    n.check(&["lock", "block"])?;
    let lock = expr(n.one("lock")?)?;
    Ok(format!(
        "synchronized({lock}){{\n{}}}\n",
        stmts(n.kids("block"))?
    ))
}

fn try_stmt(n: &Node) -> Res<String> {
    n.check(&["block", "catches", "finally_block"])?;
    let mut s = format!("try{{\n{}}}", stmts(n.kids("block"))?);
    for c in n.kids("catches") {
        if c.kind() != "CatchClause" {
            return Err(unsupported(c));
        }
        c.check(&["parameter", "block"])?;
        let p = c.one("parameter")?;
        if p.kind() != "CatchClauseParameter" {
            return Err(unsupported(p));
        }
        p.check(&["modifiers", "types", "name"])?;
        let (types, name) = (words(p.need("types")?)?.join(" | "), text(p.need("name")?)?);
        let block = stmts(c.kids("block"))?;
        s += &format!("catch({}{types} {name}){{\n{block}}}", modifiers(p)?);
    }
    if let Some(f) = n.attr("finally_block") {
        s += &format!("finally{{\n{}}}", stmts(&f.kids)?);
    }
    Ok(s + "\n")
}

/// `for(init;cond;update)` or `for(T x : xs)`.
fn for_head(c: &Node) -> Res<String> {
    match c.kind() {
        "ForControl" => {
            c.check(&["init", "condition", "update"])?;
            let init = match c.kids("init") {
                [d] if d.kind() == "VariableDeclaration" => var_decl(d)?,
                es => join(es, ", ", top_expr)?,
            };
            let test = c.attr("condition").map(|e| expr(e.only()?)).transpose()?;
            let update = join(c.kids("update"), ", ", top_expr)?;
            Ok(format!("for({init};{};{update})", test.unwrap_or_default()))
        }
        "EnhancedForControl" => {
            c.check(&["var", "iterable"])?;
            let var = var_decl(c.one("var")?)?;
            Ok(format!("for({var} : {})", expr(c.one("iterable")?)?))
        }
        _ => Err(unsupported(c)),
    }
}

/// `final static ` (with the trailing space, or nothing).
fn modifiers(n: &Node) -> Res<String> {
    let mods = n.attr("modifiers").map(words).transpose()?;
    Ok(mods
        .unwrap_or_default()
        .into_iter()
        .map(|m| m + " ")
        .collect())
}

/// `final T a = 1, b[]` of a (local) variable declaration, without the `;`.
fn var_decl(n: &Node) -> Res<String> {
    if !matches!(n.kind(), "LocalVariableDeclaration" | "VariableDeclaration") {
        return Err(unsupported(n));
    }
    n.check(&["modifiers", "type", "declarators"])?;
    let declarator = |d: &Node| {
        if d.kind() != "VariableDeclarator" {
            return Err(unsupported(d));
        }
        d.check(&["name", "dimensions", "initializer"])?;
        let s = text(d.need("name")?)? + &dims(d)?;
        match d.attr("initializer") {
            Some(i) => Ok(format!("{s} = {}", expr(i.only()?)?)),
            None => Ok(s),
        }
    };
    let decls = n.need("declarators")?.kids.iter().map(declarator);
    let decls = decls.collect::<Res<Vec<_>>>()?.join(", ");
    if decls.is_empty() {
        return Err(Box::new(TreeError::NoDeclarators));
    }
    Ok(format!("{}{} {decls}", modifiers(n)?, ty(n.one("type")?)?))
}

#[cfg(test)]
#[path = "recoder_tree_tests.rs"]
mod tests;
