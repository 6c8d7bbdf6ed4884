//! `docs/extending.md`, followed as a reader follows it: every file it
//! shows is written where it says (a fence's `file=PATH`), every Rust
//! program it shows must be the SDK's example of that name and is
//! installed built (`example=NAME install=PATH`), and every command of a
//! `console` block is run in order, in one directory, its output compared
//! with the lines the page shows under it. Times and the machine's name
//! are the only things that may differ.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use common::sdk_example;

/// Where the walkthrough's resources live; it removes it as its last step.
const MANAGED: &str = "/tmp/mrtest-hello";

/// One fenced block of the page: its info string's words and its text.
struct Block {
    line: usize,
    info: Vec<String>,
    text: String,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    for (at, line) in page.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    line: at + 1,
                    info: info.split_whitespace().map(str::to_string).collect(),
                    text: String::new(),
                })
            }
            (Some(_), Some("")) => found.extend(open.take()),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a block of the page is never closed");
    found
}

/// The value of `key=` among a fence's words.
fn option<'a>(block: &'a Block, key: &str) -> Option<&'a str> {
    block
        .info
        .iter()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
}

/// A line with what changes between runs and machines made constant:
/// durations, and the node's name.
fn steady(line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for at in 1..words.len() {
        let number = words[at - 1].parse::<f64>().is_ok();
        if number && (words[at] == "seconds" || words[at].starts_with("seconds")) {
            words[at - 1] = "N".into();
        }
        if at >= 2 && words[at - 2] == "for" && words[at - 1] != "N" && words[at] == "in" {
            words[at - 1] = "NODE".into();
        }
        if words[at - 1] == "node" && at + 1 == words.len() {
            words[at] = "NODE".into();
        }
    }
    words.join(" ")
}

/// The commands of a console block, each with the output shown under it.
fn commands(block: &Block) -> Vec<(String, Vec<String>)> {
    let mut found: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.text.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => found.push((command.to_string(), Vec::new())),
            None => found
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: output before any command", block.line))
                .1
                .push(line.to_string()),
        }
    }
    found
}

fn executable(path: &Path) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_extension_walkthroughs_work_as_written() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let page = std::fs::read_to_string(source.join("docs/extending.md")).unwrap();
    let work = tempfile::Builder::new()
        .prefix("mrtest-walkthrough-")
        .tempdir()
        .unwrap();
    let dir = work.path();
    // `marionette` on the reader's PATH is the one under test, with a
    // state directory of its own (another test's run holds the machine's
    // run lock).
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(
        bin.join("marionette"),
        format!(
            "#!/bin/sh\nexec '{}' --vardir '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_marionette"),
            dir.join("var").display()
        ),
    )
    .unwrap();
    executable(&bin.join("marionette"));
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let _ = std::fs::remove_dir_all(MANAGED);

    let mut differences = Vec::new();
    let mut ran = 0;
    for block in blocks(&page) {
        if let Some(file) = option(&block, "file") {
            let target = dir.join(file);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(&target, &block.text).unwrap();
        }
        if let Some(name) = option(&block, "example") {
            let program = source.join(format!("crates/plugin-sdk/examples/{name}.rs"));
            let code = std::fs::read_to_string(&program).unwrap();
            assert!(
                block.text == code,
                "line {}: the page must show {} as it is",
                block.line,
                program.display()
            );
            let install = option(&block, "install").expect("where the example is installed");
            let target = dir.join(install);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(sdk_example(name), &target).unwrap();
            executable(&target);
        }
        if block.info.first().map(String::as_str) != Some("console") {
            continue;
        }
        for (command, shown) in commands(&block) {
            ran += 1;
            let output = Command::new("bash")
                .arg("-c")
                .arg(format!("exec 2>&1\n{command}"))
                .current_dir(dir)
                .env("PATH", &path)
                .env("MARIONETTE_SOURCE", &source)
                .env("LANG", "C")
                .env("NO_COLOR", "1")
                .output()
                .expect("bash runs");
            let printed = String::from_utf8_lossy(&output.stdout);
            let printed: Vec<String> = printed.lines().map(steady).collect();
            let shown: Vec<String> = shown.iter().map(|line| steady(line)).collect();
            if printed != shown {
                differences.push(format!(
                    "line {}: $ {command}\n  the page shows:\n    {}\n  it printed:\n    {}",
                    block.line,
                    shown.join("\n    "),
                    printed.join("\n    ")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(MANAGED);
    assert!(ran >= 15, "the page's commands were not found: {ran}");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
