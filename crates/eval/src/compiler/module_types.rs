//! Resource types modules write in Ruby (`MODULE/lib/puppet/type/NAME.rb`),
//! made known to the compiler the first time a manifest names one: their
//! attribute names and namevar, so declarations are checked as Puppet
//! checks them. No `generate types` step is needed.
//!
//! The types nearly every site uses (stdlib's `anchor` and `file_line`,
//! concat's `concat_file` and `concat_fragment`, inifile's `ini_setting`
//! and `ini_subsetting`) are read natively from their files, which declare
//! their attributes plainly, as is every type whose file tells all it
//! declares; every other type is described by the Ruby host, which runs
//! the type's DSL, and cached by file digest for the environment. Either
//! way the description comes from the module's own file, so each
//! environment sees its own version.

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
    "mount",
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
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) => return fail(format!("Could not read {}: {e}", file.display()), span),
        };
        // A Resource API type is data, read here like the common types,
        // as is a classic type whose file tells all it declares; other
        // types are described by running their DSL, as are those with
        // title patterns of their own (their procs are Ruby).
        let spec = match marionette_ruby::scan_type(type_name, &text) {
            spec if NATIVE.contains(&type_name) || spec.api.is_some() => spec,
            spec if marionette_ruby::told_whole(&text, &spec)
                && !marionette_ruby::defines_title_patterns(&text) =>
            {
                spec
            }
            _ => self.describe_ruby_type(type_name, &file, span)?,
        };
        // A type's own title patterns (not the one every type with a
        // single namevar has) give its resources attributes from titles.
        let identity = |patterns: &[(String, Vec<String>)]| matches!(patterns, [(pattern, _)] if pattern == "(?m-ix:(.*))");
        if spec.api.is_none() && !spec.title_patterns.is_empty() && !identity(&spec.title_patterns)
        {
            self.ruby
                .titled_types
                .insert(type_name.to_string(), file.clone());
        }
        let (namevar, composite, mut attributes) = {
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
            let names: Vec<String> = spec.attributes.iter().map(|a| a.name.clone()).collect();
            (namevar, namevars.len() > 1, names)
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
            composite,
        });
        self.ruby.types.insert(type_name.to_string(), true);
        Ok(true)
    }
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
