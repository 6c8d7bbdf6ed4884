//! The Hiera corpus: every case in `tests/hiera/` runs each line of its
//! `commands` through `marionette lookup` or `marionette catalog compile`
//! as `scripts/puppet-record-lookups` ran Puppet, and compares with what
//! Puppet printed (`expected.txt`, `catalog.json`).
//!
//! A lookup must give Puppet's exit status, standard output (the value as
//! rendered, or the explanation) and `Warning:`/`Error:` lines, with the
//! case's directory written `$CASE`. A compile must give the same catalog
//! by meaning, or Puppet's first error line.
//!
//! Invocations we do not match yet are listed in
//! `tests/hiera/known-differences.txt` as `CASE LINE`, `LINE` counting the
//! lines of `commands` from 1; the test fails on any other difference and
//! when a listed one starts to match. `UPDATE_KNOWN_DIFFERENCES=1`
//! rewrites the list.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::known::{KnownDifferences, Verdict};
use common::meaning::{differences, meaning};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hiera")
        .canonicalize()
        .expect("tests/hiera exists")
}

/// One recorded invocation.
struct Block {
    line: String,
    exit: i32,
    stdout: Vec<String>,
    stderr: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("=== ") {
            out.push(Block {
                line: command.to_string(),
                exit: 0,
                stdout: Vec::new(),
                stderr: Vec::new(),
            });
            section = "";
            continue;
        }
        let Some(block) = out.last_mut() else {
            continue;
        };
        if let Some(code) = line.strip_prefix("--- exit ") {
            block.exit = code.trim().parse().unwrap_or(-1);
        } else if line == "--- stdout" {
            section = "stdout";
        } else if line == "--- stderr" {
            section = "stderr";
        } else if section == "stdout" {
            block.stdout.push(line.to_string());
        } else if section == "stderr" {
            block.stderr.push(line.to_string());
        }
    }
    out
}

/// Words as a POSIX shell splits them (quotes, backslashes).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        q => word.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The lines that matter on standard error: warnings and errors (Puppet's
/// notices and our own may differ in number).
fn messages(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("Notice:") && !l.starts_with("Info:"))
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The case's facts (or the corpus's default ones), with `clientcert`
/// set to the node when missing, as the recording script gives them.
fn facts_file(case: &Path, confdir: &Path) -> PathBuf {
    let source = if case.join("facts.json").exists() {
        case.join("facts.json")
    } else {
        case.join("../default-facts.json")
    };
    let text = std::fs::read_to_string(&source).expect("readable facts");
    let mut facts: serde_json::Value = serde_json::from_str(&text).expect("facts are JSON");
    let values = match facts.get_mut("values") {
        Some(values) => values,
        None => &mut facts,
    };
    if let Some(map) = values.as_object_mut() {
        map.entry("clientcert")
            .or_insert_with(|| serde_json::Value::String("mrtest.example.com".into()));
    }
    let name = common::case_name(case);
    let path = confdir.join(format!("{name}-facts.json"));
    std::fs::write(&path, facts.to_string()).expect("writable");
    path
}

fn run_block(case: &Path, block: &Block, confdir: &Path) -> Result<(), String> {
    let words = shell_words(&block.line);
    let global = case.join("global/hiera.yaml");
    let hiera_config = if global.exists() {
        global
    } else {
        confdir.join("hiera.yaml")
    };
    let facts = facts_file(case, confdir);
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command
        .current_dir(case)
        .env("LANG", "C.UTF-8")
        .arg("--hiera_config")
        .arg(&hiera_config)
        .arg("--environmentpath")
        .arg(case.join("environments"))
        // As recorded: no modules but the environment's.
        .arg("--basemodulepath")
        .arg(confdir.join("modules"))
        .args(["--environment", "production"]);
    let compile = words.first().map(String::as_str) == Some("compile");
    if compile {
        command
            .args(["catalog", "compile", "--certname", "mrtest.example.com"])
            .arg("--facts")
            .arg(&facts);
    } else {
        command
            .args(["lookup", "--node", "mrtest.example.com"])
            .arg("--facts")
            .arg(&facts)
            .args(&words[1..]);
    }
    let output = command
        .output()
        .map_err(|e| format!("could not run: {e}"))?;
    let normalise = |bytes: &[u8]| -> Vec<String> {
        let text = String::from_utf8_lossy(bytes)
            .replace(&case.display().to_string(), "$CASE")
            .replace(&confdir.display().to_string(), "$CONFDIR");
        let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    };
    let stdout = normalise(&output.stdout);
    let stderr = normalise(&output.stderr);
    let code = output.status.code().unwrap_or(-1);
    let mut problems = Vec::new();
    if compile {
        let expected_error = block.stderr.iter().find(|l| l.starts_with("Error: "));
        if block.exit != 0 {
            let actual = stderr.iter().find(|l| l.starts_with("Error: "));
            if code == 0 || actual != expected_error {
                problems.push(format!(
                    "error differs:\n    expected: {}\n    actual:   {}",
                    expected_error.map_or("", String::as_str),
                    actual.map_or("(none)", String::as_str)
                ));
            }
        } else if code != 0 {
            problems.push(format!("failed: {}", stderr.join("\n    ")));
        } else {
            let expected: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(case.join("catalog.json")).map_err(|e| e.to_string())?,
            )
            .map_err(|e| format!("catalog.json: {e}"))?;
            let actual: serde_json::Value = serde_json::from_slice(&output.stdout)
                .map_err(|e| format!("our catalog is not JSON: {e}"))?;
            problems.extend(differences(&meaning(&expected), &meaning(&actual)));
        }
    } else {
        if code != block.exit {
            problems.push(format!("exit {code}, Puppet's {}", block.exit));
        }
        let expected_stdout: Vec<String> = block
            .stdout
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect();
        if stdout != expected_stdout {
            problems.push(format!(
                "stdout differs:\n--- expected\n{}\n--- actual\n{}",
                expected_stdout.join("\n"),
                stdout.join("\n")
            ));
        }
        if messages(&stderr) != messages(&block.stderr) {
            problems.push(format!(
                "stderr differs:\n--- expected\n{}\n--- actual\n{}",
                messages(&block.stderr).join("\n"),
                messages(&stderr).join("\n")
            ));
        }
    }
    common::outcome(problems)
}

#[test]
fn lookups_match_puppet() {
    let root = corpus();
    let cases = common::case_dirs(&root, &["expected.txt"]);
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let confdir = tempfile::tempdir().expect("a temporary directory");
    let confdir = confdir.path().canonicalize().expect("it exists");
    let known = KnownDifferences::load(&root.join("known-differences.txt"), 2);
    let mut verdict = Verdict::new(&known);
    for case in &cases {
        let name = common::case_name(case);
        let text = std::fs::read_to_string(case.join("expected.txt")).expect("readable");
        for (index, block) in blocks(&text).iter().enumerate() {
            let outcome = run_block(case, block, &confdir)
                .map_err(|problem| format!("{}\n  {problem}", block.line));
            verdict.record(&format!("{name} {}", index + 1), &block.line, outcome);
        }
    }
    verdict.finish("invocations");
}

/// `marionette lookup` prints the error `puppet lookup` keeps to itself
/// for errors in the data and the configuration, with the same exit
/// status (`tests/hiera/lookup-errors.txt`, cases of the corpus).
#[test]
fn lookup_reports_errors_in_data_and_configuration() {
    let root = corpus();
    let text = std::fs::read_to_string(root.join("lookup-errors.txt")).expect("readable");
    let confdir = tempfile::tempdir().expect("a temporary directory");
    let confdir = confdir.path().canonicalize().expect("it exists");
    let mut problems = Vec::new();
    let blocks = blocks(&text);
    assert!(blocks.len() >= 4, "only {} blocks", blocks.len());
    for mut block in blocks {
        let (case, command) = block.line.split_once(' ').expect("=== CASE COMMAND");
        let case = root.join(case);
        block.line = command.to_string();
        if let Err(problem) = run_block(&case, &block, &confdir) {
            problems.push(format!("{}: {}\n  {problem}", case.display(), block.line));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn shell_words_split_like_a_shell() {
    assert_eq!(
        shell_words(r#"lookup --default 'a b' "c\"d" e\ f"#),
        vec!["lookup", "--default", "a b", "c\"d", "e f"]
    );
}
