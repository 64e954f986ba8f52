//! Patches as LLM-based repairers write them, read as they are (issue 66): whole replacement
//! methods in JSON lines (`testdata/calc/llm-methods/`), SEARCH/REPLACE edit blocks
//! (`search-replace/`) and method-relative diffs in JSON lines (`method-diffs/`). Each fixture
//! is told apart by `run`'s default `--format auto` and named with `--format`; its verdicts are
//! plain's and the checked ones in its `expected.json`.

mod common;
use common::*;

/// `run` on `calc/<dir>` the default way (format told apart) and with `--technique plain` and
/// the format named: both give the checked verdicts.
fn validates_with_plain_s_verdicts(dir: &str, format: &str) {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let inputs = project.join(dir);
    let expected = expected_of(&inputs.join("expected.json"));
    assert!(expected.len() >= 3, "{expected:?}");
    for flags in [vec![], vec!["--technique", "plain", "--format", format]] {
        run_flags_ok(&work, &inputs, &flags, 2);
        assert_eq!(
            verdicts_by_name(&work, &inputs),
            expected,
            "{dir} {flags:?}"
        );
    }
}

/// Function-level repair harnesses' samples: one record per line naming the file and the method
/// (by name, with parameter types, or by a line inside it), the whole new method as the model
/// wrote it (dedented, in a Markdown fence, with a new javadoc); two records of one `patch`.
#[test]
fn whole_method_records_validate_with_plain_s_verdicts() {
    validates_with_plain_s_verdicts("llm-methods", "methods");
}

/// Agentic repairers' replies: SEARCH/REPLACE blocks after prose, in a ```java fence or not,
/// SEARCH lines re-indented, blocks in two files making one patch.
#[test]
fn search_replace_blocks_validate_with_plain_s_verdicts() {
    validates_with_plain_s_verdicts("search-replace", "search-replace");
}

/// RepairBench / elle-elle-aime diffs between temporary files of the buggy and the fixed method,
/// their line numbers counted from the method's start, in records naming the file (and the
/// method or a line as a hint, or neither).
#[test]
fn method_relative_diffs_validate_with_plain_s_verdicts() {
    validates_with_plain_s_verdicts("method-diffs", "method-diff");
}
