//! A report as text, JSON and HTML.

use std::fmt::Write;

use serde_json::{Value, json};

use crate::compare::{Change, DiffType};
use crate::report::{Group, Report, Side};

/// A change in octocatalog-diff's JSON shape (`diff_type`, `type`,
/// `title`, `structure`, `old_value`, `new_value`, `old_file`, ...), with
/// `sensitive` when the values are redacted and `unified_diff` when a
/// text of several lines changed.
pub(crate) fn change_json(change: &Change) -> Value {
    let mut entry = json!({
        "diff_type": change.diff_type.symbol(),
        "type": change.type_name,
        "title": change.title,
        "structure": change.structure,
        "old_value": change.old_value,
        "new_value": change.new_value,
        "old_file": change.old_location.as_ref().map(|l| &l.0),
        "old_line": change.old_location.as_ref().map(|l| l.1),
        "new_file": change.new_location.as_ref().map(|l| &l.0),
        "new_line": change.new_location.as_ref().map(|l| l.1),
    });
    if change.sensitive {
        entry["sensitive"] = Value::Bool(true);
    }
    if let Some(diff) = unified(change) {
        entry["unified_diff"] = Value::String(diff);
    }
    entry
}

/// The unified diff of a text of several lines that changed.
fn unified(change: &Change) -> Option<String> {
    if change.sensitive {
        return None;
    }
    let old = change.old_value.as_ref().and_then(Value::as_str);
    let new = change.new_value.as_ref().and_then(Value::as_str);
    let (old, new) = match (old, new) {
        (Some(o), Some(n)) if o.contains('\n') || n.contains('\n') => (o, n),
        (Some(o), None) if o.contains('\n') => (o, ""),
        (None, Some(n)) if n.contains('\n') => ("", n),
        _ => return None,
    };
    let text = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .to_string();
    Some(text)
}

pub(crate) fn json(report: &Report) -> Value {
    let groups: Vec<Value> = report
        .groups
        .iter()
        .map(|group| {
            json!({
                "nodes": group.nodes,
                "diff": group.changes.iter().map(change_json).collect::<Vec<_>>(),
                "failures": group.failures.iter().map(|f| json!({
                    "side": f.side.name(),
                    "error": f.message,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "summary": {
            "nodes": report.nodes(),
            "changed": report.changed_nodes(),
            "unchanged": report.nodes() - report.changed_nodes(),
            "failed_from": report.failed_nodes(Side::From),
            "failed_to": report.failed_nodes(Side::To),
            "exit_code": report.exit_code(),
        },
        "groups": groups,
    })
}

/// A value on one line: strings as they are when plain, else as JSON.
fn short(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_string(),
        Some(Value::String(s)) => serde_json::to_string(s).unwrap_or_default(),
        Some(other) => other.to_string(),
    }
}

/// The names of a group's nodes, shortened past a dozen.
fn node_list(nodes: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut text = nodes
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if nodes.len() > SHOWN {
        let _ = write!(text, " and {} more", nodes.len() - SHOWN);
    }
    text
}

fn plural(count: usize, one: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
    }
}

/// A line's role, for colours and classes.
#[derive(Clone, Copy)]
enum Role {
    Heading,
    Added,
    Removed,
    Changed,
    Error,
    Plain,
}

/// The lines of one group, each with its role.
fn group_lines(group: &Group) -> Vec<(Role, String)> {
    let mut lines = Vec::new();
    let count = group.nodes.len();
    let what = if !group.failures.is_empty() {
        "failed to compile"
    } else if group.changes.is_empty() {
        "no differences"
    } else {
        "changed"
    };
    lines.push((
        Role::Heading,
        format!(
            "{} ({what}): {}",
            plural(count, "node"),
            node_list(&group.nodes)
        ),
    ));
    for failure in &group.failures {
        let side = match failure.side {
            Side::From => "the old code (--from)",
            Side::To => "the new code (--to)",
        };
        lines.push((Role::Error, format!("  Compile failure with {side}:")));
        for line in failure.message.lines() {
            lines.push((Role::Error, format!("    {line}")));
        }
    }
    let mut last_resource = String::new();
    for change in &group.changes {
        let reference = change.reference();
        match change.diff_type {
            DiffType::Added => {
                lines.push((Role::Added, format!("  + {reference}")));
                last_resource.clear();
                continue;
            }
            DiffType::Removed => {
                lines.push((Role::Removed, format!("  - {reference}")));
                last_resource.clear();
                continue;
            }
            _ => {}
        }
        if reference != last_resource {
            lines.push((Role::Changed, format!("  ~ {reference}")));
            last_resource = reference;
        }
        let place = change
            .structure
            .iter()
            .skip(usize::from(
                change.structure.first().is_some_and(|s| s == "parameters"),
            ))
            .cloned()
            .collect::<Vec<_>>()
            .join("::");
        match unified(change) {
            Some(diff) => {
                lines.push((Role::Plain, format!("      {place}:")));
                for line in diff.lines() {
                    let role = if line.starts_with('+') {
                        Role::Added
                    } else if line.starts_with('-') {
                        Role::Removed
                    } else {
                        Role::Plain
                    };
                    lines.push((role, format!("        {line}")));
                }
            }
            None => lines.push((
                Role::Plain,
                format!(
                    "      {place}: {} => {}",
                    short(change.old_value.as_ref()),
                    short(change.new_value.as_ref())
                ),
            )),
        }
    }
    lines
}

fn summary(report: &Report) -> String {
    let changed = report.changed_nodes();
    let ways = report.groups.iter().filter(|g| g.changed()).count();
    let mut text = if changed == 0 {
        format!(
            "{} compared: no differences",
            plural(report.nodes(), "node")
        )
    } else {
        format!(
            "{} compared: {changed} changed in {}, {} unchanged",
            plural(report.nodes(), "node"),
            plural(ways, "way"),
            report.nodes() - changed
        )
    };
    let failed_to = report.failed_nodes(Side::To);
    let failed_from = report.failed_nodes(Side::From);
    if failed_to > 0 {
        let _ = write!(text, "; {failed_to} failed to compile with the new code");
    }
    if failed_from > 0 {
        let _ = write!(text, "; {failed_from} failed to compile with the old code");
    }
    text.push('.');
    text
}

pub(crate) fn text(report: &Report, color: bool) -> String {
    let paint = |role: Role, line: &str| -> String {
        if !color {
            return line.to_string();
        }
        let code = match role {
            Role::Heading => "1",
            Role::Added => "32",
            Role::Removed => "31",
            Role::Changed => "33",
            Role::Error => "1;31",
            Role::Plain => return line.to_string(),
        };
        format!("\x1b[{code}m{line}\x1b[0m")
    };
    let mut out = String::new();
    for group in report.groups.iter().filter(|g| g.changed()) {
        for (role, line) in group_lines(group) {
            out.push_str(&paint(role, &line));
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// Text made safe for HTML, in elements and attributes alike.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;line-height:1.35}\
.added{color:#116329}.removed{color:#b31d28}.changed{color:#8a6100}\
.error{color:#b31d28;font-weight:bold}h2{font-size:1.05em}\
section{border-top:1px solid #ddd;padding-top:.5em}\
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}";

pub(crate) fn html(report: &Report) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.push_str("<title>marionette catalog diff</title><style>");
    out.push_str(STYLE);
    out.push_str("</style></head><body>\n<h1>Catalog diff</h1>\n");
    let _ = writeln!(out, "<p>{}</p>", escape(&summary(report)));
    let changed: Vec<&Group> = report.groups.iter().filter(|g| g.changed()).collect();
    // A table of contents: a fleet's report may hold many groups.
    if changed.len() > 1 {
        out.push_str("<table><tr><th>nodes</th><th>outcome</th><th>first nodes</th></tr>\n");
        for (at, group) in changed.iter().enumerate() {
            let outcome = if group.failures.is_empty() {
                plural(group.changes.len(), "change")
            } else {
                "compile failure".to_string()
            };
            let first: Vec<&str> = group.nodes.iter().take(3).map(String::as_str).collect();
            let _ = writeln!(
                out,
                "<tr><td><a href=\"#group-{at}\">{}</a></td><td>{}</td><td>{}</td></tr>",
                group.nodes.len(),
                escape(&outcome),
                escape(&first.join(", "))
            );
        }
        out.push_str("</table>\n");
    }
    for (at, group) in changed.iter().enumerate() {
        let lines = group_lines(group);
        let _ = writeln!(out, "<section id=\"group-{at}\">");
        if let Some((_, heading)) = lines.first() {
            let _ = writeln!(out, "<h2>{}</h2>", escape(heading));
        }
        if group.nodes.len() > 1 {
            let _ = writeln!(
                out,
                "<details><summary>All {} nodes</summary><p>{}</p></details>",
                group.nodes.len(),
                escape(&group.nodes.join(", "))
            );
        }
        out.push_str("<pre>");
        for (role, line) in lines.iter().skip(1) {
            let class = match role {
                Role::Added => "added",
                Role::Removed => "removed",
                Role::Changed => "changed",
                Role::Error => "error",
                Role::Heading | Role::Plain => "",
            };
            if class.is_empty() {
                let _ = writeln!(out, "{}", escape(line));
            } else {
                let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(line));
            }
        }
        out.push_str("</pre>\n</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::NodeOutcome;

    #[test]
    fn html_escapes_everything_it_was_given() {
        let change = Change {
            diff_type: DiffType::Changed,
            type_name: "File".into(),
            title: "/tmp/<script>".into(),
            structure: vec!["parameters".into(), "content".into()],
            old_value: Some("a\n<b>\n".into()),
            new_value: Some("a\n\"c\"&\n".into()),
            sensitive: false,
            old_location: None,
            new_location: None,
        };
        let report = Report::new(vec![NodeOutcome {
            node: "mrtest-<i>".into(),
            changes: vec![change],
            failures: vec![],
        }]);
        let page = report.to_html();
        for raw in ["<script>", "<b>", "\"c\"", "<i>", "&\n"] {
            assert!(!page.contains(raw), "{raw} unescaped in {page}");
        }
        assert!(page.contains("&lt;script&gt;"));
        assert!(!report.to_text(false).contains('\x1b'));
        assert!(report.to_text(true).contains('\x1b'));
    }
}
