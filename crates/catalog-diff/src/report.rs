//! Every node's outcome, with the nodes that changed in the same way
//! grouped, so that a change to the whole fleet reads as one entry.

use std::collections::HashMap;

use crate::compare::Change;

/// Which code a catalog was compiled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The old code (`--from`).
    From,
    /// The new code (`--to`).
    To,
}

impl Side {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Side::From => "from",
            Side::To => "to",
        }
    }
}

/// A side that did not compile, with its errors as the compiler said them
/// (located: `(file: F, line: L, column: C)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Failure {
    pub side: Side,
    pub message: String,
}

/// What became of one node: the changes when both sides compiled, else
/// the failure of each side that did not.
#[derive(Clone, Debug)]
pub struct NodeOutcome {
    pub node: String,
    pub changes: Vec<Change>,
    pub failures: Vec<Failure>,
}

/// Nodes whose outcome is the same.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) nodes: Vec<String>,
    pub(crate) changes: Vec<Change>,
    /// Each failure with the node's name taken out of its message.
    pub(crate) failures: Vec<Failure>,
}

impl Group {
    pub(crate) fn changed(&self) -> bool {
        !self.changes.is_empty() || !self.failures.is_empty()
    }
}

/// The outcome of a fleet's diff.
#[derive(Clone, Debug)]
pub struct Report {
    pub(crate) groups: Vec<Group>,
}

/// A compile error without the ` on node NAME` every line of it ends
/// with, so that nodes failing alike are grouped.
fn without_node(message: &str, node: &str) -> String {
    let suffix = format!(" on node {node}");
    message
        .lines()
        .map(|line| line.strip_suffix(&suffix).unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What two nodes must share to be grouped: their changes and failures.
fn key(changes: &[Change], failures: &[Failure]) -> String {
    let mut key = String::new();
    for change in changes {
        key.push_str(&crate::render::change_json(change).to_string());
        key.push('\n');
    }
    for failure in failures {
        key.push_str(failure.side.name());
        key.push_str(&failure.message);
        key.push('\n');
    }
    key
}

impl Report {
    /// Groups the outcomes: nodes that failed first, then changes shared
    /// by the most nodes, unchanged nodes last.
    pub fn new(outcomes: Vec<NodeOutcome>) -> Report {
        let mut groups: Vec<Group> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for outcome in outcomes {
            let failures: Vec<Failure> = outcome
                .failures
                .iter()
                .map(|f| Failure {
                    side: f.side,
                    message: without_node(&f.message, &outcome.node),
                })
                .collect();
            let key = key(&outcome.changes, &failures);
            match index.get(&key) {
                Some(&at) => groups[at].nodes.push(outcome.node),
                None => {
                    index.insert(key, groups.len());
                    groups.push(Group {
                        nodes: vec![outcome.node],
                        changes: outcome.changes,
                        failures,
                    });
                }
            }
        }
        for group in &mut groups {
            group.nodes.sort();
        }
        groups.sort_by(|a, b| {
            let rank = |g: &Group| {
                (
                    g.failures.is_empty(),
                    !g.changed(),
                    std::cmp::Reverse(g.nodes.len()),
                )
            };
            rank(a)
                .cmp(&rank(b))
                .then_with(|| a.nodes.first().cmp(&b.nodes.first()))
        });
        Report { groups }
    }

    /// How many nodes were compared.
    pub fn nodes(&self) -> usize {
        self.groups.iter().map(|g| g.nodes.len()).sum()
    }

    /// Nodes whose catalogs differ, or that failed on either side.
    pub fn changed_nodes(&self) -> usize {
        self.groups
            .iter()
            .filter(|g| g.changed())
            .map(|g| g.nodes.len())
            .sum()
    }

    /// Nodes that did not compile on `side`.
    pub fn failed_nodes(&self, side: Side) -> usize {
        self.groups
            .iter()
            .filter(|g| g.failures.iter().any(|f| f.side == side))
            .map(|g| g.nodes.len())
            .sum()
    }

    /// The exit code `--detailed-exitcodes` reads: 2 for differences, 4
    /// for a compile failure of the new code, 6 for both, else 0.
    pub fn exit_code(&self) -> u8 {
        let differences = self
            .groups
            .iter()
            .any(|g| !g.changes.is_empty() || g.failures.iter().any(|f| f.side == Side::From));
        let failed = self.failed_nodes(Side::To) > 0;
        (if differences { 2 } else { 0 }) | (if failed { 4 } else { 0 })
    }

    /// Text for a person; with `color`, ANSI colours for a terminal.
    pub fn to_text(&self, color: bool) -> String {
        crate::render::text(self, color)
    }

    /// JSON for tools: a summary and the groups, each with its nodes and
    /// its changes in octocatalog-diff's shape.
    pub fn to_json(&self) -> serde_json::Value {
        crate::render::json(self)
    }

    /// One self-contained HTML page, every text escaped.
    pub fn to_html(&self) -> String {
        crate::render::html(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::DiffType;

    fn change(title: &str) -> Change {
        Change {
            diff_type: DiffType::Changed,
            type_name: "File".into(),
            title: title.into(),
            structure: vec!["parameters".into(), "mode".into()],
            old_value: Some("0644".into()),
            new_value: Some("0640".into()),
            sensitive: false,
            old_location: None,
            new_location: None,
        }
    }

    #[test]
    fn nodes_that_change_alike_are_one_group() {
        let outcome = |node: &str, changes: Vec<Change>, failures: Vec<Failure>| NodeOutcome {
            node: node.into(),
            changes,
            failures,
        };
        let broken = |node: &str| Failure {
            side: Side::To,
            message: format!(
                "Error: Evaluation Error: boom (file: x.pp, line: 1, column: 2) on node {node}"
            ),
        };
        let report = Report::new(vec![
            outcome("mrtest-b", vec![change("/a")], vec![]),
            outcome("mrtest-a", vec![change("/a")], vec![]),
            outcome("mrtest-c", vec![change("/b")], vec![]),
            outcome("mrtest-d", vec![], vec![]),
            outcome("mrtest-e", vec![], vec![broken("mrtest-e")]),
            outcome("mrtest-f", vec![], vec![broken("mrtest-f")]),
        ]);
        let nodes: Vec<Vec<&str>> = report
            .groups
            .iter()
            .map(|g| g.nodes.iter().map(String::as_str).collect())
            .collect();
        assert_eq!(
            nodes,
            [
                vec!["mrtest-e", "mrtest-f"],
                vec!["mrtest-a", "mrtest-b"],
                vec!["mrtest-c"],
                vec!["mrtest-d"],
            ]
        );
        assert_eq!(report.exit_code(), 6);
        assert_eq!(report.changed_nodes(), 5);
        assert!(!report.groups[0].failures[0].message.contains("on node"));
    }
}
