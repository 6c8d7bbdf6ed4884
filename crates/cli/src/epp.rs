//! `marionette epp render` and `marionette epp validate`: EPP templates
//! rendered in the node's top scope with the values given, or checked
//! for syntax, as `puppet epp` does.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use marionette_eval::{CompileOptions, Stream};
use marionette_syntax::{SourceFile, SourceKind};
use marionette_values::Value;

/// `marionette epp`.
#[derive(clap::Args, Debug)]
pub(crate) struct EppArgs {
    #[command(subcommand)]
    action: EppAction,
}

#[derive(clap::Subcommand, Debug)]
enum EppAction {
    /// Render templates (files, or `module/template.epp` from the module
    /// path), or the one given with -e or on standard input, with this
    /// machine's facts and the values given as the template's parameters.
    #[command(
        after_help = "Examples:\n  marionette epp render motd.epp --values '{owner => \"ops\"}'\n  marionette epp render ntp/ntp.conf.epp --values_file values.yaml\n  marionette epp render -e 'Hello <%= $facts[\"hostname\"] %>'"
    )]
    Render(RenderArgs),
    /// Check templates' syntax without rendering them; exits 1 when one
    /// has an error. Standard input is read when no template is given.
    #[command(
        after_help = "Examples:\n  marionette epp validate templates/motd.epp\n  marionette epp validate --continue_on_error a.epp b.epp"
    )]
    Validate(ValidateArgs),
}

#[derive(clap::Args, Debug)]
struct RenderArgs {
    /// The templates: files, or `module/template.epp` found in the
    /// modules' `templates` directories.
    templates: Vec<String>,
    /// Render this template text instead.
    #[arg(
        short = 'e',
        long = "e",
        value_name = "SOURCE",
        conflicts_with = "templates"
    )]
    execute: Option<String>,
    /// The template's parameters, as a Puppet hash (`{name => "web"}`);
    /// they win over those of --values_file.
    #[arg(long, value_name = "HASH")]
    values: Option<String>,
    /// A YAML or JSON file of parameters, or a `.pp` file whose value is a
    /// hash of them.
    #[arg(
        long = "values_file",
        visible_alias = "values-file",
        value_name = "FILE"
    )]
    values_file: Option<PathBuf>,
    /// The node's facts (JSON or YAML) instead of this machine's.
    #[arg(long, value_name = "FILE")]
    facts: Option<PathBuf>,
    /// The node's name (default: this machine's).
    #[arg(long, value_name = "NAME")]
    node: Option<String>,
    /// Put `--- TEMPLATE` before each template's output when there are
    /// several (the default).
    #[arg(long, overrides_with = "no_header")]
    header: bool,
    /// Join several templates' output with no header between them.
    #[arg(long = "no-header", overrides_with = "header")]
    no_header: bool,
}

#[derive(clap::Args, Debug)]
struct ValidateArgs {
    /// The template files; standard input when none is given.
    templates: Vec<PathBuf>,
    /// Go on to the next templates after one with errors.
    #[arg(long = "continue_on_error", visible_alias = "continue-on-error")]
    continue_on_error: bool,
}

pub(crate) fn run(args: EppArgs) -> Result<ExitCode> {
    match args.action {
        EppAction::Render(args) => render(args),
        EppAction::Validate(args) => validate(args),
    }
}

/// Evaluates code in the node's top scope; what it logged is printed.
fn evaluate(
    options: &CompileOptions,
    name: &str,
    code: &str,
    variables: &[(&str, Value)],
) -> Result<Value, String> {
    let file = SourceFile::new(name, code);
    let evaluated = marionette_eval::evaluate(options, &file, variables);
    // The template is not called from the language here: its errors are
    // said without the call's wrapping, as Puppet's renderer says them.
    let value = evaluated.value.map_err(|message| {
        message
            .strip_prefix("Error while evaluating a Function Call, ")
            .map_or(message.clone(), str::to_string)
    });
    for (stream, line) in &evaluated.lines {
        match stream {
            Stream::Stdout => crate::print_stdout(&format!("{line}\n")),
            Stream::Stderr => errln!("{line}"),
        }
    }
    value
}

/// The template's parameters: those of --values_file, then --values over
/// them; undef when neither is given.
fn values(args: &RenderArgs, options: &CompileOptions) -> Result<Value> {
    let mut values: Option<marionette_values::PHash> = None;
    if let Some(path) = &args.values_file {
        let from_file = if path.extension().is_some_and(|e| e == "pp") {
            let code = std::fs::read_to_string(path).map_err(|e| {
                anyhow::anyhow!("Could not load --values_file {}: {e}", path.display())
            })?;
            evaluate(options, &path.display().to_string(), &code, &[])
                .map_err(|e| anyhow::anyhow!("Could not load --values_file {e}"))?
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            let data = marionette_facts::load_facts_file(path)
                .map_err(|e| anyhow::anyhow!("Could not load --values_file {e}"))?;
            marionette_catalog::from_data(&serde_json::Value::Object(data))
        } else {
            bail!("Only .yaml or .pp can be used as a --values_file");
        };
        match from_file {
            Value::Hash(hash) => values = Some((*hash).clone()),
            Value::Undef => {}
            other => bail!(
                "--values_file option must evaluate to a Hash or undef/nil, got: '{}'",
                marionette_values::format::ruby_class(&other)
            ),
        }
    }
    if let Some(code) = &args.values {
        match evaluate(options, "values-hash", code, &[]).map_err(|e| anyhow::anyhow!("{e}"))? {
            Value::Hash(hash) => {
                let mut merged = values.take().unwrap_or_default();
                for (key, value) in hash.iter() {
                    merged.insert(key.clone(), value.clone());
                }
                values = Some(merged);
            }
            Value::Undef => {}
            other => bail!(
                "--values option must evaluate to a Hash or undef, got: '{}'",
                marionette_values::format::ruby_class(&other)
            ),
        }
    }
    Ok(values.map_or(Value::Undef, Value::hash))
}

/// What a template rendered to, Sensitive or not, as text.
fn text_of(value: Value) -> String {
    match value {
        Value::Sensitive(inner) => text_of((*inner).clone()),
        Value::String(text) => text.to_string(),
        other => marionette_values::format::to_s(&other),
    }
}

fn render(args: RenderArgs) -> Result<ExitCode> {
    let options =
        crate::lookup::node_options(args.facts.as_deref(), args.node.as_deref(), Vec::new())?;
    let values = values(&args, &options)?;
    let inline = match (&args.execute, args.templates.is_empty()) {
        (Some(source), _) => Some(source.clone()),
        (None, true) if !std::io::stdin().is_terminal() => {
            let mut source = String::new();
            std::io::stdin().read_to_string(&mut source)?;
            Some(source)
        }
        (None, true) => bail!("No input to process given on command line or stdin"),
        (None, false) => None,
    };
    if let Some(source) = inline {
        let rendered = evaluate(
            &options,
            "<epp>",
            "inline_epp($__epp_source, $__epp_values)",
            &[
                ("__epp_source", Value::string(source)),
                ("__epp_values", values),
            ],
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        print_with_newline(&text_of(rendered));
        return Ok(ExitCode::SUCCESS);
    }
    let headers = args.templates.len() > 1 && !args.no_header;
    let mut output = String::new();
    let mut failed = false;
    for (n, name) in args.templates.iter().enumerate() {
        if headers {
            if n > 0 {
                output.push('\n');
            }
            output.push_str(&format!("--- {name}\n"));
        }
        // A file that exists is rendered from its absolute path; anything
        // else is a module's template (`module/name.epp`).
        let reference = match Path::new(name).is_file() {
            true => crate::environment::absolute(Path::new(name))
                .display()
                .to_string(),
            false => name.clone(),
        };
        match evaluate(
            &options,
            "<epp>",
            "epp($__epp_template, $__epp_values)",
            &[
                ("__epp_template", Value::string(reference)),
                ("__epp_values", values.clone()),
            ],
        ) {
            Ok(rendered) => output.push_str(&text_of(rendered)),
            Err(message) => {
                errln!("Error: {message}");
                failed = true;
            }
        }
    }
    print_with_newline(&output);
    if failed {
        errln!("Error: error while rendering epp");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Output as Puppet's face prints it: ending with a line end.
fn print_with_newline(text: &str) {
    if text.is_empty() || text.ends_with('\n') {
        crate::print_stdout(text);
    } else {
        crate::print_stdout(&format!("{text}\n"));
    }
}

/// The first syntax error of a template, as Puppet words it.
fn first_error(name: &str, text: &str) -> Option<String> {
    let file = SourceFile::new(name, text);
    let checked = marionette_syntax::check(text, SourceKind::Epp);
    checked
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .map(|d| file.one_line(d))
}

fn validate(args: ValidateArgs) -> Result<ExitCode> {
    let mut failed = false;
    if args.templates.is_empty() {
        if std::io::stdin().is_terminal() {
            outln!("Notice: No template specified. No action taken");
            return Ok(ExitCode::SUCCESS);
        }
        let mut source = String::new();
        std::io::stdin().read_to_string(&mut source)?;
        if let Some(error) = first_error("<stdin>", &source) {
            errln!("Error: {error}");
            failed = true;
        }
    }
    let mut missing = Vec::new();
    for path in &args.templates {
        if failed && !args.continue_on_error {
            break;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            missing.push(path.display().to_string());
            continue;
        };
        if let Some(error) = first_error(&path.display().to_string(), &text) {
            errln!("Error: {error}");
            failed = true;
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|m| format!("   {m}")).collect();
        errln!(
            "Error: One or more file(s) specified did not exist:\n{}",
            list.join("\n")
        );
        return Ok(ExitCode::FAILURE);
    }
    if failed {
        errln!("Error: Errors while validating epp");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
