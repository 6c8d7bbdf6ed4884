//! Resource types modules write in Ruby (`MODULE/lib/puppet/type/NAME.rb`),
//! made known to the compiler the first time a manifest names one: their
//! attribute names and namevar, so declarations are checked as Puppet
//! checks them. No `generate types` step is needed.
//!
//! The types nearly every site uses (stdlib's `anchor` and `file_line`,
//! concat's `concat_file` and `concat_fragment`, inifile's `ini_setting`
//! and `ini_subsetting`) are read natively from their files, which declare
//! their attributes plainly; every other type is described by the Ruby
//! host, which runs the type's DSL, and cached by file digest for the
//! environment. Either way the description comes from the module's own
//! file, so each environment sees its own version.

use std::path::Path;

use marionette_diagnostics::Span;

use super::builtin_types::{self, AgentType};
use crate::error::{EvalResult, fail};
use crate::evaluator::Evaluator;

/// The types read natively from their files.
const NATIVE: &[&str] = &[
    "anchor",
    "concat_file",
    "concat_fragment",
    "file_line",
    "ini_setting",
    "ini_subsetting",
];

impl Evaluator<'_> {
    /// Whether a module ships the resource type `type_name` (lower case);
    /// when it does, the type is known for the rest of the compile.
    pub(crate) fn module_type(&mut self, type_name: &str, span: Span) -> EvalResult<bool> {
        if let Some(&known) = self.ruby.types.get(type_name) {
            return Ok(known);
        }
        let valid = !type_name.is_empty()
            && type_name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        let dirs = match &self.loader {
            Some(loader) if valid => loader.module_dirs(),
            _ => Vec::new(),
        };
        let relative = format!("lib/puppet/type/{type_name}.rb");
        let Some(file) = dirs.iter().map(|d| d.join(&relative)).find(|f| f.is_file()) else {
            self.ruby.types.insert(type_name.to_string(), false);
            return Ok(false);
        };
        let (namevar, mut attributes) = if NATIVE.contains(&type_name) {
            match std::fs::read_to_string(&file) {
                Ok(text) => scan(&text),
                Err(e) => return fail(format!("Could not read {}: {e}", file.display()), span),
            }
        } else {
            let spec = self.describe_ruby_type(type_name, &file, span)?;
            let namevars: Vec<&str> = spec
                .attributes
                .iter()
                .filter(|a| a.namevar)
                .map(|a| a.name.as_str())
                .collect();
            // A type identified by several attributes keeps its title as
            // the catalog's name.
            let namevar = match namevars.as_slice() {
                [one] => one.to_string(),
                _ => "name".to_string(),
            };
            let names = spec.attributes.iter().map(|a| a.name.clone()).collect();
            (namevar, names)
        };
        let provider = format!("lib/puppet/provider/{type_name}");
        if dirs.iter().any(|d| d.join(&provider).is_dir())
            && !attributes.iter().any(|a| a == "provider")
        {
            attributes.push("provider".to_string());
        }
        builtin_types::add_agent_type(AgentType {
            name: type_name.to_string(),
            namevar,
            attributes,
        });
        self.ruby.types.insert(type_name.to_string(), true);
        Ok(true)
    }
}

/// A type's namevar and attribute names, read from the plain declarations
/// of its file: `ensurable`, `newparam(:x ...)`, `newproperty(:x ...)`,
/// and `namevar: true` or `isnamevar` marking the namevar.
fn scan(text: &str) -> (String, Vec<String>) {
    let mut attributes: Vec<String> = Vec::new();
    let mut namevar = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line == "ensurable" || line.starts_with("ensurable ") || line.starts_with("ensurable(") {
            attributes.push("ensure".into());
            continue;
        }
        let declared = ["newparam", "newproperty"]
            .iter()
            .find_map(|word| line.strip_prefix(word))
            .and_then(|rest| rest.trim_start_matches(['(', ' ']).strip_prefix(':'))
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .filter(|name| !name.is_empty());
        if let Some(name) = declared {
            if line.contains("namevar: true") || line.contains(":namevar => true") {
                namevar = Some(name.clone());
            }
            attributes.push(name);
        } else if line == "isnamevar" {
            namevar = attributes.last().cloned();
        }
    }
    // Puppet takes `name` as the namevar when none is marked.
    (namevar.unwrap_or_else(|| "name".into()), attributes)
}

impl Evaluator<'_> {
    fn describe_ruby_type(
        &mut self,
        type_name: &str,
        file: &Path,
        span: Span,
    ) -> EvalResult<marionette_ruby::TypeSpec> {
        crate::ruby::describe_type(self, type_name, file, span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read_from_the_file() {
        let text = "Puppet::Type.newtype(:demo) do\n  ensurable do\n    defaultto :present\n  end\n  newparam(:path, namevar: true) do\n  end\n  newproperty(:value) do\n  end\n  # newparam(:commented)\n  newparam :force, boolean: true\nend\n";
        let (namevar, attributes) = scan(text);
        assert_eq!(namevar, "path");
        assert_eq!(attributes, ["ensure", "path", "value", "force"]);
        let (namevar, _) = scan("newparam(:title) do\n  isnamevar\nend\n");
        assert_eq!(namevar, "title");
    }
}
