//! Shell completions and manual pages, generated from the command
//! definitions: they name every command and the options `--help` shows.

mod common;

#[test]
fn completions_cover_the_commands_and_their_options() {
    for shell in ["bash", "zsh", "fish"] {
        let run = common::marionette(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for word in ["apply", "lookup", "report", "summarize", "logdest"] {
            assert!(run.stdout.contains(word), "{shell} completion lacks {word}");
        }
    }
    let bad = common::marionette(&["completions", "tcsh"]);
    assert_eq!(bad.code, 1, "a usage error exits 1");
}

#[test]
fn manual_pages_are_written_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let run = common::marionette(&["man", "--out", &out.display().to_string()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for page in [
        "marionette.1",
        "marionette-apply.1",
        "marionette-catalog-compile.1",
        "marionette-report-show.1",
    ] {
        assert!(out.join(page).is_file(), "{page} missing");
    }
    let apply = std::fs::read_to_string(out.join("marionette-apply.1")).unwrap();
    assert!(apply.starts_with(".ie") && apply.contains(".TH marionette-apply 1"));
    assert!(apply.contains("summarize") && apply.contains("detailed\\-exitcodes"));
    let main = common::marionette(&["man"]);
    assert!(main.stdout.contains(".SH NAME"), "{}", main.stdout);
}
