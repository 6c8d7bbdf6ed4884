//! Reference documentation generated from type and provider definitions:
//! the text of `marionette describe` and the Markdown of
//! `marionette doc --reference type`, in the shape of Puppet's.

use std::fmt::Write;

use crate::metaparams::METAPARAMETERS;
use crate::provider::ProviderDef;
use crate::registry::Registry;
use crate::typedef::{AttrDef, AttrKind, TypeDef};

const WIDTH: usize = 72;

/// `describe --list`: each type with the start of its first sentence.
pub fn list(registry: &Registry) -> String {
    let mut out = String::from("These are the types known to marionette:\n");
    for type_def in registry.types() {
        let _ = writeln!(
            out,
            "{:<15} - {}",
            type_def.name,
            short_summary(&type_def.doc)
        );
    }
    out
}

/// The first sentence, without its period, cut at 45 characters as Puppet
/// cuts it.
fn short_summary(doc: &str) -> String {
    let flat = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = match flat.find(". ") {
        Some(end) => &flat[..end],
        None => flat.trim_end_matches('.'),
    };
    if sentence.chars().count() > 45 {
        let cut: String = sentence.chars().take(45).collect();
        format!("{cut} ...")
    } else {
        sentence.to_string()
    }
}

/// Wraps `text` at the width, indenting every output line. Plain
/// paragraphs are reflowed; paragraphs with indented or bulleted lines
/// (code, lists) keep their line breaks.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, out: &mut String| {
        if paragraph.is_empty() {
            return;
        }
        let structured = paragraph.iter().any(|line| {
            let trimmed = line.trim_start();
            line.len() != trimmed.len() || trimmed.starts_with("* ") || trimmed.starts_with("- ")
        });
        if structured {
            for line in paragraph.iter() {
                wrap_line(line, indent, out);
            }
        } else {
            wrap_line(&paragraph.join(" "), indent, out);
        }
        paragraph.clear();
    };
    for line in text.lines() {
        if line.trim().is_empty() {
            flush(&mut paragraph, &mut out);
            out.push('\n');
        } else {
            paragraph.push(line);
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

fn wrap_line(line: &str, indent: &str, out: &mut String) {
    let lead = &line[..line.len() - line.trim_start().len()];
    let mut current = format!("{indent}{lead}");
    let base = current.len();
    for word in line.split_whitespace() {
        if current.len() > base && current.len() + 1 + word.len() > WIDTH {
            out.push_str(current.trim_end());
            out.push('\n');
            current = format!("{indent}{lead}");
        }
        if current.len() > base {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push_str(current.trim_end());
    out.push('\n');
}

/// Attributes sorted by name, as Puppet lists them.
fn sorted_attributes(type_def: &TypeDef) -> Vec<&AttrDef> {
    let mut attrs: Vec<&AttrDef> = type_def.attributes.iter().collect();
    attrs.sort_by(|a, b| a.name.cmp(&b.name));
    attrs
}

fn values_line(attr: &AttrDef) -> Option<String> {
    let literals: Vec<String> = attr.literals().map(|l| format!("`{l}`")).collect();
    let patterns: Vec<String> = attr
        .patterns()
        .map(|p| format!("`/{}/`", p.source()))
        .collect();
    let mut parts = Vec::new();
    if !literals.is_empty() {
        parts.push(format!("Valid values are {}.", literals.join(", ")));
    }
    if !patterns.is_empty() {
        parts.push(format!("Values can match {}.", patterns.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// `describe TYPE`, optionally with each provider's details, or the short
/// form with only names.
pub fn describe(registry: &Registry, type_def: &TypeDef, providers: bool, short: bool) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "\n{}\n{}\n",
        type_def.name,
        "=".repeat(type_def.name.len())
    );
    out.push_str(&wrap(&type_def.doc, ""));
    out.push_str("\n\nParameters\n----------\n");
    let attrs = sorted_attributes(type_def);
    if short {
        let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
        out.push_str(&wrap(&names.join(", "), "    "));
    } else {
        for attr in attrs {
            let _ = writeln!(out, "\n- **{}**", attr.name);
            out.push_str(&wrap(&attr.doc, "    "));
            if let Some(values) = values_line(attr) {
                let _ = writeln!(out, "    {values} ");
            }
            if !attr.required_features.is_empty() {
                let _ = writeln!(
                    out,
                    "    Requires features {}.",
                    attr.required_features.join(", ")
                );
            }
        }
    }
    let documented = registry.documented_providers(&type_def.name);
    if !documented.is_empty() {
        out.push_str("\nProviders\n---------\n");
        if providers && !short {
            for provider in documented {
                let _ = writeln!(out, "\n- **{}**", provider.name);
                out.push_str(&wrap(&provider.doc, "    "));
                for line in provider_facts(type_def, provider) {
                    out.push_str(&wrap(&format!("* {line}"), "    "));
                }
            }
        } else {
            let names: Vec<&str> = documented.iter().map(|p| p.name.as_str()).collect();
            out.push_str(&wrap(&names.join(", "), "    "));
        }
    }
    out
}

/// The bullet facts Puppet lists under a provider.
fn provider_facts(type_def: &TypeDef, provider: &ProviderDef) -> Vec<String> {
    let mut facts = Vec::new();
    if !provider.commands.is_empty() {
        let binaries: Vec<String> = provider
            .commands
            .iter()
            .map(|(_, p)| format!("`{p}`"))
            .collect();
        facts.push(format!("Required binaries: {}.", binaries.join(", ")));
    }
    for entry in &provider.defaultfor {
        let conditions: Vec<String> = entry
            .iter()
            .map(|(fact, values)| format!("`{fact}` == `{}`", values.join(", ")))
            .collect();
        facts.push(format!("Default for {}.", conditions.join(", ")));
    }
    let features = provider.feature_list(type_def);
    if !features.is_empty() {
        let list: Vec<String> = features.iter().map(|f| format!("`{f}`")).collect();
        facts.push(format!("Supported features: {}.", list.join(", ")));
    }
    if let Some(parent) = &provider.parent {
        facts.push(format!("Extends the `{parent}` provider."));
    }
    facts
}

/// `doc --reference type`: every type in Markdown.
pub fn reference(registry: &Registry) -> String {
    let mut out = String::from("# Type Reference\n\n");
    out.push_str(
        "Generated by `marionette doc --reference type` from the type and provider \
         definitions; edit those, not this text.\n\n## Resource Types\n\n\
         - The *namevar* identifies a resource on the system; it defaults to the title.\n\
         - *Properties* are observed on the system and changed to match the manifest; \
         *parameters* steer how the resource is managed.\n\
         - *Providers* implement a type on a platform; the default one is chosen from the facts.\n\
         - *Features* are abilities some providers have; some attributes need them.\n\n",
    );
    for type_def in registry.types() {
        out.push_str(&reference_type(registry, type_def));
    }
    out.push_str("----------------\n\n## Metaparameters\n\nEvery type accepts these.\n\n");
    for (name, doc) in METAPARAMETERS {
        let _ = writeln!(out, "{name}\n: {doc}\n");
    }
    out
}

fn reference_type(registry: &Registry, type_def: &TypeDef) -> String {
    let mut out = format!(
        "----------------\n\n### {}\n\n{}\n\n",
        type_def.name, type_def.doc
    );
    let providers = registry.documented_providers(&type_def.name);
    if !type_def.features.is_empty() {
        out.push_str("#### Features\n\n");
        for feature in &type_def.features {
            let _ = writeln!(out, "- *{}*: {}", feature.name, feature.doc);
        }
        if !providers.is_empty() {
            out.push_str("\nProvider | ");
            out.push_str(
                &type_def
                    .features
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" | "),
            );
            out.push_str(" |\n--- | ");
            out.push_str(
                &type_def
                    .features
                    .iter()
                    .map(|_| "---")
                    .collect::<Vec<_>>()
                    .join(" | "),
            );
            out.push_str(" |\n");
            for provider in &providers {
                let marks: Vec<&str> = type_def
                    .features
                    .iter()
                    .map(|f| {
                        if provider.has_feature(type_def, &f.name) {
                            "*X*"
                        } else {
                            ""
                        }
                    })
                    .collect();
                let _ = writeln!(out, "{} | {} |", provider.name, marks.join(" | "));
            }
        }
        out.push('\n');
    }
    out.push_str("#### Parameters\n\n");
    for attr in sorted_attributes(type_def) {
        let mut notes = Vec::new();
        if type_def.namevar().is_some_and(|n| n.name == attr.name) {
            notes.push("*Namevar*: when not given, the title is used.".to_string());
        }
        match attr.kind {
            AttrKind::Property | AttrKind::CreateOnly => {
                notes.push("*Property*: read from the system and changed to match.".to_string())
            }
            AttrKind::ReadOnly => {
                notes.push("*Read-only property*: reported, never set.".to_string())
            }
            AttrKind::Parameter => {}
        }
        if attr.kind == AttrKind::CreateOnly {
            notes.push("Set only when the resource is created.".to_string());
        }
        notes.push(attr.doc.replace('\n', "\n  "));
        let _ = writeln!(out, "{}\n: {}\n", attr.name, notes.join("\n\n  "));
        if let Some(values) = values_line(attr) {
            let _ = writeln!(out, "  {values}\n");
        }
        if !attr.required_features.is_empty() {
            let _ = writeln!(
                out,
                "  Requires features {}.\n",
                attr.required_features.join(", ")
            );
        }
    }
    if !providers.is_empty() {
        let _ = writeln!(
            out,
            "provider\n: Which implementation manages this `{}` resource; chosen from the facts \
             when not given. The providers:\n",
            type_def.name
        );
        for provider in providers {
            let _ = writeln!(
                out,
                "  {}\n  : {}\n",
                provider.name,
                provider.doc.replace('\n', "\n    ")
            );
            for line in provider_facts(type_def, provider) {
                let _ = writeln!(out, "    * {line}");
            }
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_stop_at_the_first_sentence_and_45_characters() {
        assert_eq!(
            short_summary("Manage groups. On most platforms"),
            "Manage groups"
        );
        assert_eq!(
            short_summary("Manages files, including their content, ownership, and permissions."),
            "Manages files, including their content, owner ..."
        );
    }
}
