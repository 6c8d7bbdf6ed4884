//! `marionette report list` and `marionette report show`: the kept run
//! reports (`last_run_report.json`, `previous_run_report.json` in the
//! state directory, or any report file in Puppet's JSON format) as a
//! person reads them, or as JSON for tools.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde_json::Value;

#[derive(Subcommand)]
pub(crate) enum ReportCommand {
    /// List the kept reports: when, how the run ended, and its counts.
    List(ListArgs),
    /// Show one report: what changed, failed and was skipped, warnings
    /// and errors, and the totals.
    Show(ShowArgs),
}

/// Whose reports, and where they are kept.
#[derive(Args)]
pub(crate) struct Kept {
    /// The reports `marionette server` kept of this node, instead of this
    /// machine's.
    #[arg(long, value_name = "CERTNAME")]
    node: Option<String>,
}

#[derive(Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    kept: Kept,
    /// `text`, or `json` for tools.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    format: String,
}

#[derive(Args)]
pub(crate) struct ShowArgs {
    /// `last` (the default), `previous`, or a report file.
    #[arg(default_value = "last")]
    report: String,
    #[command(flatten)]
    kept: Kept,
    /// `text`, or `json` for the report itself.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    format: String,
}

pub(crate) fn run(command: ReportCommand) -> Result<ExitCode> {
    match command {
        ReportCommand::List(args) => list(&args),
        ReportCommand::Show(args) => show(&args),
    }
}

/// The kept reports by the names `show` takes, newest first: this
/// machine's, or those the server kept of `node` (`last`, `previous`,
/// then older ones by the time they came).
fn kept(node: Option<&str>) -> Vec<(String, PathBuf)> {
    let state = crate::apply::vardir();
    if let Some(node) = node {
        let dir = state.join("server/reports").join(node);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "json"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files.reverse();
        return files
            .into_iter()
            .enumerate()
            .map(|(i, path)| {
                let name = match i {
                    0 => "last".to_string(),
                    1 => "previous".to_string(),
                    _ => path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                };
                (name, path)
            })
            .collect();
    }
    let state = state.join("state");
    [
        ("last", state.join("last_run_report.json")),
        ("previous", state.join("previous_run_report.json")),
    ]
    .into_iter()
    .filter(|(_, path)| path.is_file())
    .map(|(name, path)| (name.to_string(), path))
    .collect()
}

fn read(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("Could not read the report {}", path.display()))?;
    let report: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a report in JSON", path.display()))?;
    if !report.is_object() || report.get("resource_statuses").is_none() {
        bail!("{} is not a run report", path.display());
    }
    Ok(report)
}

fn list(args: &ListArgs) -> Result<ExitCode> {
    let reports = kept(args.kept.node.as_deref());
    let mut rows = Vec::new();
    for (name, path) in &reports {
        let report = read(path)?;
        rows.push((name, path, report));
    }
    if args.format == "json" {
        let entries: Vec<Value> = rows
            .iter()
            .map(|(name, path, report)| {
                serde_json::json!({
                    "name": name,
                    "file": path.display().to_string(),
                    "time": report["time"],
                    "host": report["host"],
                    "environment": report["environment"],
                    "status": report["status"],
                    "noop": report["noop"],
                    "resources": counts(report),
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        errln!(
            "No reports are kept in {} yet: a run keeps its report there.",
            crate::apply::vardir().join("state").display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for (name, path, report) in &rows {
        outln!(
            "{name:<9} {}  {:<9} {}{}  {}",
            short_time(text(report, "time")),
            text(report, "status"),
            totals_line(report),
            if report["noop"] == Value::Bool(true) {
                " (noop)"
            } else {
                ""
            },
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn show(args: &ShowArgs) -> Result<ExitCode> {
    let named = kept(args.kept.node.as_deref())
        .into_iter()
        .find(|(name, _)| *name == args.report)
        .map(|(_, path)| path);
    let path = match (named, args.report.as_str()) {
        (Some(path), _) => path,
        (None, which @ ("last" | "previous")) => {
            let place = match &args.kept.node {
                Some(node) => format!(
                    "of {node} in {}",
                    crate::apply::vardir()
                        .join("server/reports")
                        .join(node)
                        .display()
                ),
                None => format!("in {}", crate::apply::vardir().join("state").display()),
            };
            bail!("No {which} report is kept {place}")
        }
        (None, file) => PathBuf::from(file),
    };
    let report = read(&path)?;
    if args.format == "json" {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", describe(&report));
    }
    Ok(ExitCode::SUCCESS)
}

fn text<'a>(report: &'a Value, key: &str) -> &'a str {
    report.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `2026-11-24T09:36:35.671006732+00:00` → `2026-11-24 09:36:35`.
fn short_time(time: &str) -> String {
    time.get(..19).unwrap_or(time).replacen('T', " ", 1)
}

/// A metric's values by name (`resources`, `time`, ...).
fn metric(report: &Value, name: &str) -> Vec<(String, Value)> {
    report["metrics"][name]["values"]
        .as_array()
        .map(|values| {
            values
                .iter()
                .filter_map(|entry| {
                    let name = entry.get(0)?.as_str()?.to_string();
                    Some((name, entry.get(2)?.clone()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The resource counts of the run, by name.
fn counts(report: &Value) -> serde_json::Map<String, Value> {
    metric(report, "resources").into_iter().collect()
}

/// `3 resources: 1 changed, 1 failed, 1 skipped in 0.01 seconds`.
fn totals_line(report: &Value) -> String {
    let counts = counts(report);
    let count = |name: &str| counts.get(name).and_then(Value::as_u64).unwrap_or(0);
    let seconds = metric(report, "time")
        .into_iter()
        .find(|(name, _)| name == "total")
        .and_then(|(_, value)| value.as_f64());
    totals(
        count("total"),
        &SHOWN_COUNTS.map(|name| (name, count(name))),
        seconds,
    )
}

/// The counts a summary names, when not zero.
pub(crate) const SHOWN_COUNTS: [&str; 5] =
    ["changed", "failed", "skipped", "out_of_sync", "restarted"];

/// A run's totals in one line: the resources, the counts that are not
/// zero, the time.
pub(crate) fn totals(total: u64, counts: &[(&str, u64)], seconds: Option<f64>) -> String {
    let parts: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n} {}", name.replace('_', " ")))
        .collect();
    format!(
        "{total} resource{}{}{}",
        if total == 1 { "" } else { "s" },
        if parts.is_empty() {
            ", nothing to do".to_string()
        } else {
            format!(": {}", parts.join(", "))
        },
        seconds.map_or(String::new(), |s| format!(" in {s:.2} seconds"))
    )
}

/// A part of a shown report: its title, and which statuses go in it.
type Section<'a> = (&'a str, &'a dyn Fn(&Value) -> bool);

/// A report as a person reads it.
fn describe(report: &Value) -> String {
    let mut out = format!(
        "Run of {} in environment {} at {}{}: {}\n",
        text(report, "host"),
        text(report, "environment"),
        short_time(text(report, "time")),
        if report["noop"] == Value::Bool(true) {
            " (noop)"
        } else {
            ""
        },
        text(report, "status"),
    );
    out.push_str(&format!("{}\n", totals_line(report)));
    let statuses: Vec<&Value> = report["resource_statuses"]
        .as_object()
        .map(|statuses| statuses.values().collect())
        .unwrap_or_default();
    let flag = |status: &Value, key: &str| status[key] == Value::Bool(true);
    let place = |status: &Value| match (status["file"].as_str(), status["line"].as_u64()) {
        (Some(file), Some(line)) => format!(" ({file}:{line})"),
        _ => String::new(),
    };
    let sections: [Section; 4] = [
        ("Failed", &|s| {
            flag(s, "failed") || flag(s, "failed_to_restart")
        }),
        ("Changed", &|s| {
            flag(s, "changed") && !flag(s, "failed") && !flag(s, "failed_to_restart")
        }),
        ("Would change (noop)", &|s| {
            flag(s, "out_of_sync") && !flag(s, "changed") && !flag(s, "failed")
        }),
        ("Skipped", &|s| {
            flag(s, "skipped") && !flag(s, "failed") && !flag(s, "changed")
        }),
    ];
    for (title, wanted) in sections {
        let chosen: Vec<&&Value> = statuses.iter().filter(|s| wanted(s)).collect();
        if chosen.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title} ({}):\n", chosen.len()));
        for status in chosen {
            out.push_str(&format!(
                "  {}{}\n",
                status["resource"].as_str().unwrap_or(""),
                place(status)
            ));
            for event in status["events"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "    {}: {}\n",
                    event["property"].as_str().unwrap_or(""),
                    event["message"].as_str().unwrap_or("")
                ));
            }
        }
    }
    let problems: Vec<&Value> = report["logs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|log| matches!(log["level"].as_str(), Some("warning" | "err")))
        .collect();
    if !problems.is_empty() {
        out.push_str(&format!("\nWarnings and errors ({}):\n", problems.len()));
        for log in problems {
            let level = if log["level"] == "err" {
                "Error"
            } else {
                "Warning"
            };
            let source = log["source"].as_str().unwrap_or("");
            let message = log["message"].as_str().unwrap_or("");
            if source.is_empty() || source == "Puppet" {
                out.push_str(&format!("  {level}: {message}\n"));
            } else {
                out.push_str(&format!("  {level}: {source}: {message}\n"));
            }
        }
    }
    out
}
