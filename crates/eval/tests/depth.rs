//! Deeply nested code: long operator chains, long include chains and
//! deeply nested data evaluate, and code nested past the evaluator's
//! limit fails with a located error instead of overflowing the stack.

use marionette_diagnostics::SourceFile;
use marionette_eval::{Outcome, RunOptions, run_manifest};

fn run(code: &str) -> Outcome {
    let file = SourceFile::new("/tmp/mrtest-depth.pp", code);
    let options = RunOptions {
        node_name: "mrtest-node".into(),
        strict_variables: false,
        verbose: false,
    };
    run_manifest(&file, &options)
}

fn text(outcome: &Outcome) -> String {
    outcome
        .lines
        .iter()
        .map(|(_, line)| line.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_sum_of_five_thousand_terms_evaluates() {
    let sum = vec!["1"; 5_000].join(" + ");
    let outcome = run(&format!("notice({sum})\n"));
    assert!(outcome.success, "{}", text(&outcome));
    assert!(text(&outcome).contains("5000"), "{}", text(&outcome));
}

#[test]
fn a_chain_of_three_thousand_includes_evaluates() {
    let mut code = String::new();
    for n in 0..3_000 {
        code.push_str(&format!("class c{n} {{ include c{} }}\n", n + 1));
    }
    code.push_str("class c3000 { notice('bottom') }\ninclude c0\n");
    let outcome = run(&code);
    assert!(outcome.success, "{}", text(&outcome));
    assert!(text(&outcome).contains("bottom"), "{}", text(&outcome));
}

#[test]
fn a_sum_too_deep_to_evaluate_fails_with_its_location() {
    let sum = vec!["1"; 100_000].join(" + ");
    let outcome = run(&format!("notice({sum})\n"));
    assert!(!outcome.success);
    let text = text(&outcome);
    assert!(
        text.contains("Evaluation is nested more than 20000 levels deep")
            && text.contains("(file: /tmp/mrtest-depth.pp, line: 1, column:"),
        "{text}"
    );
}
