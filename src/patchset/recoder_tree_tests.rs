//! Unit tests of the printed-AST reader: each javalang node kind printed back as Java, and the errors.

use super::*;
use proptest::prelude::*;

/// `name kid kid ... ^`, the way Recoder prints a node.
fn node(name: &str, kids: &[String]) -> String {
    kids.iter().fold(name.to_string(), |s, k| s + " " + k) + " ^"
}
fn leaf(text: &str) -> String {
    format!("{text}_ter ^")
}
/// An attribute holding a name: `member x_ter ^ ^`.
fn named(attr: &str, text: &str) -> String {
    node(attr, &[leaf(text)])
}
fn java(stmts: &[String]) -> String {
    let code = node("root", stmts);
    assert!(is_tree(&code), "{code}");
    to_java(&code).unwrap_or_else(|e| panic!("{e}: {code}"))
}
fn mref(m: &str) -> String {
    node("MemberReference", &[named("member", m)])
}
fn lit(v: &str) -> String {
    node("Literal", &[named("value", v)])
}
fn se(e: String) -> String {
    node("StatementExpression", &[node("expression", &[e])])
}
fn call(qual: Option<&str>, member: &str, args: &[String]) -> String {
    let mut kids: Vec<String> = qual.map(|q| named("qualifier", q)).into_iter().collect();
    kids.push(named("member", member));
    if !args.is_empty() {
        kids.push(node("arguments", args));
    }
    node("MethodInvocation", &kids)
}
fn bin(op: &str, l: String, r: String) -> String {
    let kids = [
        named("operator", op),
        node("operandl", &[l]),
        node("operandr", &[r]),
    ];
    node("BinaryOperation", &kids)
}
fn assign(op: &str, target: String, value: String) -> String {
    let kids = [
        node("expressionl", &[target]),
        node("value", &[value]),
        named("type", op),
    ];
    node("Assignment", &kids)
}
fn rtype(name: &str) -> String {
    node("ReferenceType", &[named("name", name)])
}
fn btype(name: &str) -> String {
    node("BasicType", &[named("name", name)])
}
fn cond(e: String) -> String {
    node("condition", &[e])
}
fn ret(e: String) -> String {
    node("ReturnStatement", &[node("expression", &[e])])
}
/// `mref` with extra attributes (selectors, operators, qualifier).
fn mref_with(m: &str, extra: &[String]) -> String {
    node("MemberReference", &[&[named("member", m)], extra].concat())
}

#[test]
fn method_call_with_qualifier_and_arguments() {
    let c = call(Some("foo.bar"), "baz", &[mref("x"), lit("1")]);
    assert_eq!(java(&[se(c)]), "foo.bar.baz(x, 1);\n");
    // A qualifier that is a call, as Recoder fills in an unknown qualifier.
    let q = node("qualifier", &[call(None, "getFoo", &[])]);
    let c = node("MethodInvocation", &[q, named("member", "bar")]);
    assert_eq!(java(&[se(c)]), "getFoo().bar();\n");
    let sup = node("SuperMethodInvocation", &[named("member", "close")]);
    assert_eq!(java(&[se(sup)]), "super.close();\n");
}

#[test]
fn assignments() {
    let a = assign("+=", mref("x"), bin("+", mref("y"), lit("1")));
    assert_eq!(java(&[se(a)]), "x += (y + 1);\n");
    // Nested in an expression an assignment keeps its parentheses.
    let inner = assign("=", mref("x"), call(None, "next", &[]));
    let i = node("IfStatement", &[cond(bin("!=", inner, lit("null")))]);
    assert_eq!(java(&[i]), "if(((x = next()) != null)){\n");
}

#[test]
fn unary_operators() {
    let pre = |op: &str| node("prefix_operators", &[leaf(op)]);
    let post = |op: &str| node("postfix_operators", &[leaf(op)]);
    assert_eq!(java(&[se(mref_with("i", &[post("++")]))]), "i++;\n");
    assert_eq!(java(&[se(mref_with("i", &[pre("--")]))]), "--i;\n");
    let neg = mref_with("x", &[node("prefix_operators", &[leaf("-"), leaf("-")])]);
    assert_eq!(java(&[ret(neg)]), "return - -x;\n");
    let not = node("MethodInvocation", &[pre("!"), named("member", "isEmpty")]);
    assert_eq!(java(&[ret(not)]), "return !isEmpty();\n");
    let operands = [
        node("operandl", &[mref("a")]),
        node("operandr", &[mref("b")]),
    ];
    let not_and = node(
        "BinaryOperation",
        &[&[pre("!"), named("operator", "&&")], &operands[..]].concat(),
    );
    assert_eq!(java(&[ret(not_and)]), "return !(a && b);\n");
    let b = bin(
        "-",
        mref_with("a", &[post("--")]),
        mref_with("b", &[pre("-")]),
    );
    assert_eq!(java(&[ret(b)]), "return (a-- - -b);\n");
}

#[test]
fn literals() {
    for (v, out) in [
        ("42", "42"),
        ("1.5e3", "1.5e3"),
        ("0xFFL", "0xFFL"),
        ("\"abc\"", "\"abc\""),
        ("<string>", "\"null\""),
        ("null", "null"),
        ("'c'", "'c'"),
        ("true", "true"),
    ] {
        assert_eq!(java(&[ret(lit(v))]), format!("return {out};\n"));
    }
    // javalang's `^` operator is printed `^<>`.
    assert_eq!(
        java(&[ret(bin("^<>", mref("a"), lit("1")))]),
        "return (a ^ 1);\n"
    );
}

#[test]
fn field_access_through_this_and_qualified_names() {
    let this_x = node("This", &[node("selectors", &[mref("x")])]);
    assert_eq!(java(&[se(assign("=", this_x, mref("x")))]), "this.x = x;\n");
    let outer = node(
        "This",
        &[named("qualifier", "Outer"), node("selectors", &[mref("y")])],
    );
    assert_eq!(java(&[ret(outer)]), "return Outer.this.y;\n");
    let q = mref_with("MAX_VALUE", &[named("qualifier", "java.lang.Integer")]);
    assert_eq!(java(&[ret(q)]), "return java.lang.Integer.MAX_VALUE;\n");
    let class = node("ClassReference", &[node("type", &[rtype("Foo")])]);
    assert_eq!(java(&[ret(class)]), "return Foo.class;\n");
}

#[test]
fn array_access() {
    let idx = |e: String| node("ArraySelector", &[node("index", &[e])]);
    let a = mref_with("a", &[node("selectors", &[idx(mref("i"))])]);
    let b = mref_with(
        "b",
        &[node("selectors", &[idx(bin("+", mref("i"), lit("1")))])],
    );
    assert_eq!(java(&[se(assign("=", a, b))]), "a[i] = b[(i + 1)];\n");
    let sels = node("selectors", &[idx(lit("0")), call(None, "bar", &[])]);
    let c = node("MethodInvocation", &[named("member", "foo"), sels]);
    assert_eq!(java(&[se(c)]), "foo()[0].bar();\n");
}

#[test]
fn casts() {
    let cast = |t: String, e: String| node("Cast", &[node("type", &[t]), node("expression", &[e])]);
    assert_eq!(
        java(&[ret(cast(btype("int"), mref("x")))]),
        "return (int)x;\n"
    );
    let div = bin("/", mref("a"), mref("b"));
    assert_eq!(
        java(&[ret(cast(btype("double"), div))]),
        "return (double)(a / b);\n"
    );
    // `((Foo) o).bar()`: the selector applies to the cast.
    let sels = node("selectors", &[call(None, "bar", &[])]);
    let c = node(
        "Cast",
        &[
            node("type", &[rtype("Foo")]),
            node("expression", &[mref("o")]),
            sels,
        ],
    );
    assert_eq!(java(&[se(c)]), "((Foo)o).bar();\n");
}

#[test]
fn creators() {
    let new = |t: String, args: &[String]| {
        let mut kids = vec![node("type", &[t])];
        if !args.is_empty() {
            kids.push(node("arguments", args));
        }
        node("ClassCreator", &kids)
    };
    assert_eq!(
        java(&[ret(new(rtype("Foo"), &[mref("a"), lit("1")]))]),
        "return new Foo(a, 1);\n"
    );
    let targ = |t: String| node("TypeArgument", &[node("type", &[t])]);
    let list = node(
        "ReferenceType",
        &[
            named("name", "List"),
            node("arguments", &[targ(rtype("Integer"))]),
        ],
    );
    let map = node(
        "ReferenceType",
        &[
            named("name", "HashMap"),
            node("arguments", &[targ(rtype("String")), targ(list)]),
        ],
    );
    assert_eq!(
        java(&[ret(new(map, &[]))]),
        "return new HashMap<String, List<Integer>>();\n"
    );
    let entry = node(
        "ReferenceType",
        &[named("name", "Map"), node("sub_type", &[rtype("Entry")])],
    );
    assert_eq!(java(&[ret(new(entry, &[]))]), "return new Map.Entry();\n");
    let arr = node(
        "ArrayCreator",
        &[
            node("type", &[btype("int")]),
            node("dimensions", &[mref("n")]),
        ],
    );
    assert_eq!(java(&[ret(arr)]), "return new int[n];\n");
    let init = node(
        "ArrayInitializer",
        &[node("initializers", &[lit("1"), lit("2")])],
    );
    let dims = node("dimensions", &[leaf("None")]);
    let arr = node(
        "ArrayCreator",
        &[
            node("type", &[btype("int")]),
            dims,
            node("initializer", &[init]),
        ],
    );
    assert_eq!(java(&[ret(arr)]), "return new int[]{1, 2};\n");
}

#[test]
fn ternary() {
    let t = node(
        "TernaryExpression",
        &[
            cond(bin(">", mref("a"), mref("b"))),
            node("if_true", &[mref("a")]),
            node("if_false", &[mref("b")]),
        ],
    );
    let sum = bin("+", t.clone(), lit("1"));
    assert_eq!(
        java(&[se(assign("=", mref("m"), t))]),
        "m = (((a > b))?a:b);\n"
    );
    assert_eq!(java(&[ret(sum)]), "return ((((a > b))?a:b) + 1);\n");
}

#[test]
fn return_break_continue() {
    assert_eq!(java(&[ret(mref("x"))]), "return x;\n");
    assert_eq!(java(&[leaf("ReturnStatement")]), "return;\n");
    assert_eq!(java(&["ReturnStatement ^".into()]), "return;\n");
    assert_eq!(java(&[leaf("BreakStatement")]), "break;\n");
    assert_eq!(java(&[leaf("ContinueStatement")]), "continue;\n");
    let labelled = node("ContinueStatement", &[named("goto", "outer")]);
    assert_eq!(java(&[labelled]), "continue outer;\n");
    let thrown = node("ThrowStatement", &[node("expression", &[mref("e")])]);
    assert_eq!(java(&[thrown, leaf("Statement")]), "throw e;\n;\n");
}

#[test]
fn local_variable_declarations() {
    let decl = |kids: &[String]| node("VariableDeclarator", kids);
    let arr = node(
        "BasicType",
        &[named("name", "int"), node("dimensions", &[leaf("None")])],
    );
    let d = node(
        "LocalVariableDeclaration",
        &[
            named("modifiers", "final"),
            node("type", &[arr]),
            node(
                "declarators",
                &[
                    decl(&[named("name", "a"), node("initializer", &[lit("null")])]),
                    decl(&[named("name", "b")]),
                ],
            ),
        ],
    );
    assert_eq!(java(&[d]), "final int[] a = null, b;\n");
}

#[test]
fn if_head_only() {
    let c = cond(bin("==", mref("x"), lit("null")));
    assert_eq!(
        java(&[node("IfStatement", std::slice::from_ref(&c))]),
        "if((x == null)){\n"
    );
    // A rewritten condition line is written as an if head, as Recoder's evaluation does.
    assert_eq!(java(std::slice::from_ref(&c)), "if((x == null)){\n");
    // A head followed by more statements encloses them.
    let stmts = [
        node("IfStatement", &[c]),
        se(call(None, "f", &[])),
        leaf("ReturnStatement"),
    ];
    assert_eq!(java(&stmts), "if((x == null)){\nf();\nreturn;\n}\n");
    // Below the root a head alone means nothing; it gets an empty block.
    let nested = node("then_statement", &[node("IfStatement", &[cond(mref("b"))])]);
    let outer = node("IfStatement", &[cond(mref("a")), nested]);
    assert_eq!(java(&[outer]), "if(a){\nif(b){\n}\n}\n");
}

#[test]
fn if_then_else() {
    let block = node(
        "BlockStatement",
        &[node(
            "statements",
            &[se(call(None, "a", &[])), se(call(None, "b", &[]))],
        )],
    );
    let i = node(
        "IfStatement",
        &[
            cond(mref("ok")),
            node("then_statement", &[block]),
            node("else_statement", &[leaf("ReturnStatement")]),
        ],
    );
    assert_eq!(java(&[i]), "if(ok){\na();\nb();\n}else{\nreturn;\n}\n");
    let i = node(
        "IfStatement",
        &[
            cond(mref("ok")),
            node("then_statement", &[leaf("BreakStatement")]),
        ],
    );
    assert_eq!(
        java(&[i, leaf("ContinueStatement")]),
        "if(ok){\nbreak;\n}\ncontinue;\n"
    );
}

#[test]
fn recoder_example() {
    let code = "root LocalVariableDeclaration type ReferenceType name Double_ter ^ ^ ^ ^ declarators VariableDeclarator name objTypePair_ter ^ ^ initializer ClassCreator type ReferenceType name Double_ter ^ ^ ^ ^ arguments MemberReference member x_ter ^ ^ ^ ^ ^ ^ ^ ^ ^ StatementExpression expression SuperConstructorInvocation arguments MemberReference member f_ter ^ ^ ^ ^ ^ ^ ^ ^";
    let want = "Double objTypePair = new Double(x);\nsuper(f);\n";
    assert!(is_tree(code));
    assert_eq!(to_java(code).as_deref(), Ok(want));
    // Missing or extra closing `^` at the end are tolerated.
    let cut = code.trim_end_matches(" ^");
    assert_eq!(to_java(cut).as_deref(), Ok(want));
    assert_eq!(to_java(&format!("{code} ^ ^ ^")).as_deref(), Ok(want));
}

#[test]
fn loops_and_try() {
    let init = node(
        "VariableDeclaration",
        &[
            node("type", &[btype("int")]),
            node(
                "declarators",
                &[node(
                    "VariableDeclarator",
                    &[named("name", "i"), node("initializer", &[lit("0")])],
                )],
            ),
        ],
    );
    let inc = mref_with("i", &[node("postfix_operators", &[leaf("++")])]);
    let control = node(
        "ForControl",
        &[
            node("init", &[init]),
            cond(bin("<", mref("i"), mref("n"))),
            node("update", &[inc]),
        ],
    );
    let body = node("body", &[se(call(None, "f", &[mref("i")]))]);
    let f = node(
        "ForStatement",
        &[node("control", std::slice::from_ref(&control)), body],
    );
    assert_eq!(java(&[f]), "for(int i = 0;(i < n);i++){\nf(i);\n}\n");
    assert_eq!(
        java(&[node("control", &[control])]),
        "for(int i = 0;(i < n);i++){\n"
    );
    let var = node(
        "VariableDeclaration",
        &[
            node("type", &[rtype("String")]),
            node(
                "declarators",
                &[node("VariableDeclarator", &[named("name", "s")])],
            ),
        ],
    );
    let each = node(
        "EnhancedForControl",
        &[node("var", &[var]), node("iterable", &[mref("xs")])],
    );
    let f = node(
        "ForStatement",
        &[
            node("control", &[each]),
            node("body", &[leaf("BlockStatement")]),
        ],
    );
    assert_eq!(java(&[f]), "for(String s : xs){\n}\n");
    let w = node(
        "WhileStatement",
        &[cond(mref("more")), node("body", &[leaf("BreakStatement")])],
    );
    assert_eq!(java(&[w]), "while(more){\nbreak;\n}\n");
    let param = node(
        "CatchClauseParameter",
        &[node("types", &[leaf("IOException")]), named("name", "e")],
    );
    let catch = node(
        "CatchClause",
        &[
            node("parameter", &[param]),
            node("block", &[leaf("ReturnStatement")]),
        ],
    );
    let t = node(
        "TryStatement",
        &[
            node("block", &[se(call(None, "f", &[]))]),
            node("catches", &[catch]),
        ],
    );
    assert_eq!(
        java(&[t]),
        "try{\nf();\n}catch(IOException e){\nreturn;\n}\n"
    );
}

#[test]
fn unsupported_and_malformed() {
    let sw = node("SwitchStatement", &[node("expression", &[mref("x")])]);
    assert_eq!(
        to_java(&node("root", &[sw])),
        Err(TreeError::Unsupported("SwitchStatement".into()))
    );
    let anon = node(
        "ClassCreator",
        &[node("type", &[rtype("Foo")]), node("body", &[leaf("x")])],
    );
    assert!(to_java(&node("root", &[ret(anon)]))
        .unwrap_err()
        .to_string()
        .contains("ClassCreator"));
    assert!(to_java("int x = 1;").is_err());
    assert!(to_java("root ^ ReturnStatement_ter ^").is_err());
    assert!(to_java("root ReturnStatement expression ^ ^ ^").is_err());
    assert!(to_java("root ReturnStatement bogus x_ter ^ ^ ^").is_err());
    assert_eq!(to_java("root ^").as_deref(), Ok(""));
    assert!(!is_tree("return x;"));
    assert!(!is_tree("root = x;"));
    assert!(!is_tree(""));
}

#[test]
fn depth_is_bounded() {
    // The deepest trees accepted, in the shapes the printer recurses through, printed on a thread
    // with half the stack of a test thread (in a debug build).
    let deepest = |head: &str, repeated: &str, n: usize, end: &str| {
        format!("root {head}{}{end}", repeated.repeat(n))
    };
    let ret = "ReturnStatement expression ";
    let shapes = [
        deepest("", "BlockStatement statements ", 249, "BreakStatement_ter"),
        deepest(
            "",
            "IfStatement condition This_ter ^ ^ then_statement ",
            249,
            "Statement_ter",
        ),
        deepest(
            ret,
            "Cast type BasicType name int_ter ^ ^ ^ ^ expression ",
            246,
            "This_ter",
        ),
        deepest(
            ret,
            "MemberReference member a_ter ^ ^ selectors ",
            248,
            "This_ter",
        ),
        deepest(
            ret,
            "BinaryOperation operator +_ter ^ ^ operandr This_ter ^ ^ operandl ",
            248,
            "This_ter",
        ),
        deepest(
            ret,
            "MethodInvocation member f_ter ^ ^ arguments ",
            248,
            "This_ter",
        ),
    ];
    let printed = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || shapes.map(|code| to_java(&code)))
        .unwrap()
        .join()
        .unwrap();
    for p in printed {
        assert!(p.is_ok(), "{p:?}");
    }
    let too_deep = deepest(
        ret,
        "MethodInvocation member f_ter ^ ^ arguments ",
        249,
        "This_ter",
    );
    assert_eq!(to_java(&too_deep), Err(TreeError::TooDeep(500)));
    assert_eq!(
        TreeError::TooDeep(500).to_string(),
        "tree deeper than 500 nodes"
    );
}

#[path = "recoder_tree_props.rs"]
mod props;
