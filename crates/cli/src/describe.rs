//! `marionette describe` and `marionette doc --reference type`: reference
//! text generated from the type and provider definitions.

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use marionette_ral::docs;

#[derive(Args)]
pub(crate) struct DescribeArgs {
    /// The types to describe.
    #[arg(value_name = "TYPE", required_unless_present = "list")]
    types: Vec<String>,
    /// List every type with a summary.
    #[arg(long, short = 'l')]
    list: bool,
    /// Describe each provider too.
    #[arg(long, short = 'p')]
    providers: bool,
    /// Only list the attribute and provider names.
    #[arg(long, short = 's')]
    short: bool,
}

pub(crate) fn describe(args: DescribeArgs) -> Result<ExitCode> {
    let registry = crate::environment::registry();
    if args.list {
        out!("{}", docs::list(&registry));
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for name in &args.types {
        let type_def = registry.require_type(name)?;
        // A module's Ruby type is shown as running its DSL declares it,
        // as Puppet shows it, whatever stands for it natively.
        let declared = match crate::environment::plugins()
            .ruby_type_reference(name, &crate::environment::ruby())
        {
            Some(Ok(declared)) => Some(declared),
            Some(Err(message)) => {
                errln!("Warning: {name} is described from a reading of its file: {message}");
                None
            }
            None => None,
        };
        out.push_str(&docs::describe(
            &registry,
            declared.as_ref().unwrap_or(type_def),
            args.providers,
            args.short,
        ));
    }
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub(crate) struct DocArgs {
    /// The reference to generate; only `type` exists so far.
    #[arg(long, short = 'r', value_name = "REFERENCE")]
    reference: String,
}

pub(crate) fn doc(args: DocArgs) -> Result<ExitCode> {
    if args.reference != "type" {
        bail!(
            "Unknown reference '{}': the available reference is 'type'",
            args.reference
        );
    }
    out!("{}", docs::reference(&crate::environment::registry()));
    Ok(ExitCode::SUCCESS)
}
