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

#[test]
fn a_resource_parameter_nested_too_deep_fails_with_its_location() {
    // Built at run time, past what the parser limits: `reduce` wraps the
    // array in another 100,000 times.
    let deep = "$deep = Integer[1, 100000].reduce([]) |$memo, $i| { [$memo] }\n";
    for (declaration, line) in [
        ("notify { 'mrtest-deep': message => $deep }\n", 2),
        ("notify { 'mrtest-deep': message => { 'k' => $deep } }\n", 2),
        // Through a function, a default and a class parameter.
        (
            "create_resources('notify', { 'mrtest-deep' => { 'message' => $deep } })\n",
            2,
        ),
        ("class mrtest_deep($p = $deep) {}\ninclude mrtest_deep\n", 2),
        (
            "Notify { message => $deep }\nnotify { 'mrtest-deep': }\n",
            2,
        ),
    ] {
        let outcome = run(&format!("{deep}{declaration}"));
        let text = text(&outcome);
        assert!(!outcome.success, "{declaration}: {text}");
        assert!(
            text.contains("is nested more than 1000 levels deep")
                && text.contains(&format!(
                    "(file: /tmp/mrtest-depth.pp, line: {line}, column:"
                )),
            "{declaration}: {text}"
        );
    }
    // As deep as the limit allows: compiled.
    let outcome = run(
        "$deep = Integer[1, 999].reduce([]) |$memo, $i| { [$memo] }\nnotify { 'mrtest-deep': message => $deep }\n",
    );
    assert!(outcome.success, "{}", text(&outcome));
}
