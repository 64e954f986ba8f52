//! Property tests of the Recoder tree reader: random token sequences, random well-formed trees
//! over its vocabulary, and random strings never make it panic.

use super::*;

/// Node names, attributes, leaves and junk the random inputs are made of.
const VOCAB: &[&str] = &[
    "root",
    "^",
    "^",
    "^",
    "^",
    "StatementExpression",
    "expression",
    "MethodInvocation",
    "member",
    "qualifier",
    "arguments",
    "MemberReference",
    "Literal",
    "value",
    "BinaryOperation",
    "operator",
    "operandl",
    "operandr",
    "IfStatement",
    "condition",
    "then_statement",
    "else_statement",
    "BlockStatement",
    "statements",
    "ReturnStatement",
    "ReturnStatement_ter",
    "BreakStatement_ter",
    "LocalVariableDeclaration",
    "type",
    "declarators",
    "VariableDeclarator",
    "name",
    "initializer",
    "ReferenceType",
    "BasicType",
    "dimensions",
    "None_ter",
    "Cast",
    "This",
    "This_ter",
    "selectors",
    "ArraySelector",
    "index",
    "Assignment",
    "expressionl",
    "TernaryExpression",
    "if_true",
    "if_false",
    "ClassCreator",
    "ArrayCreator",
    "ArrayInitializer",
    "initializers",
    "ForStatement",
    "ForControl",
    "EnhancedForControl",
    "control",
    "body",
    "init",
    "update",
    "var",
    "iterable",
    "prefix_operators",
    "postfix_operators",
    "LambdaExpression",
    "parameters",
    "TryStatement",
    "block",
    "catches",
    "CatchClause",
    "parameter",
    "SwitchStatement",
    "TypeArgument",
    "sub_type",
    "x_ter",
    "1_ter",
    "<string>_ter",
    "^<>_ter",
    "-_ter",
    "+_ter",
    "_ter",
    "<empty>_ter",
    "garbage",
    "{",
    "}",
    ";",
    "\u{1F600}",
    "ü_ter",
];

/// Well-formed trees over the vocabulary, to reach the printers beyond the first node.
fn tree() -> impl Strategy<Value = String> {
    let words: Vec<&str> = VOCAB.iter().copied().filter(|w| *w != "^").collect();
    let leaf = prop::sample::select(words.clone()).prop_map(|w| format!("{w} ^"));
    leaf.prop_recursive(8, 200, 4, move |inner| {
        (
            prop::sample::select(words.clone()),
            prop::collection::vec(inner, 1..4),
        )
            .prop_map(|(w, kids)| node(w, &kids))
    })
}

proptest! {
    #[test]
    fn random_tokens_never_panic(
        toks in prop::collection::vec(prop::sample::select(VOCAB.to_vec()), 0..300),
        rooted: bool,
    ) {
        let code = toks.join(" ");
        let code = if rooted { format!("root {code}") } else { code };
        let _ = is_tree(&code);
        let _ = to_java(&code);
    }

    #[test]
    fn random_trees_never_panic(kids in prop::collection::vec(tree(), 0..4)) {
        let code = node("root", &kids);
        prop_assert!(is_tree(&code));
        let _ = to_java(&code);
    }

    #[test]
    fn random_strings_never_panic(s in any::<String>(), t in "root[ a-z^_]*") {
        let _ = (is_tree(&s), to_java(&s), is_tree(&t), to_java(&t));
    }
}
