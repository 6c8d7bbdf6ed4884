//! `filebucket`: a named, content-addressed store that `file` resources
//! back up into with `backup => NAME`.
//!
//! A bucket is local: its `path` is a directory with the same layout as
//! the run's own bucket (see `marionette_ral::filebucket`), so
//! `marionette filebucket --bucket PATH` reads it. Puppet's remote buckets
//! (`path => false`, served by a Puppet server) are refused when the
//! catalog is checked, before anything is applied: marionette talks to no
//! Puppet server, and silently keeping no backup would lose data.

use marionette_ral::{AttrDef, Context, Filebucket, PropertyProvider, ProviderDef, TypeDef};
use marionette_values::Value;

/// The bucket every run has, used when `backup` names no declared bucket.
pub const DEFAULT_BUCKET: &str = "puppet";

pub fn definition() -> TypeDef {
    TypeDef::new("filebucket")
        .doc(
            "A place where file contents are saved, by their sha256 checksum,
            before a `file` resource changes or removes them. A `file` resource
            uses it with `backup => NAME`; without a declared bucket, `backup`
            names `puppet`, the run's own bucket under the state directory.

            Buckets are local directories; Puppet's remote buckets on a Puppet
            server (`path => false`) are not supported and are refused before
            the run starts.

            Example:

                filebucket { 'main': path => '/var/backups/marionette' }
                File { backup => 'main' }

            The contents can be listed and restored with
            `marionette filebucket list --bucket /var/backups/marionette`.",
        )
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc("The name `file` resources give as `backup`."),
        )
        .attr(
            AttrDef::param("path")
                .doc(
                    "The directory of the bucket, an absolute path; created when the
                    first file is saved. Without it, the bucket is the run's own
                    (`clientbucket` under the state directory). Puppet's `false`,
                    a remote bucket, is refused.",
                )
                .validate(|_, value| match value {
                    Value::Array(_) => Err("You can only have one filebucket path".into()),
                    Value::Boolean(false) => Err(
                        "Remote filebuckets (path => false) are not supported: marionette keeps backups locally; give the bucket an absolute path"
                            .into(),
                    ),
                    Value::String(text) if text.starts_with('/') => Ok(()),
                    Value::String(_) => Err("Filebucket paths must be absolute".into()),
                    other => Err(format!(
                        "Filebucket paths must be absolute paths, not {}",
                        marionette_ral::attribute::inspect(other)
                    )),
                })
                .munge(|_, value| Ok(crate::types::file::normalize_path_value(value))),
        )
        .attr(AttrDef::param("server").doc(
            "The Puppet server of a remote bucket. Puppet consults it only with
            `path => false`, which is not supported, so it is accepted and unused.",
        ))
        .attr(AttrDef::param("port").doc(
            "The port of a remote bucket's server. Accepted and unused, as `server`.",
        ))
}

/// The bucket a `backup` value names. `Ok(None)` when the run keeps no bucket of its own and the name means
/// that one.
pub fn resolve(cx: &Context, name: &str) -> Result<Option<Filebucket>, String> {
    match cx.find("filebucket", name) {
        Some(declared) => Ok(match declared.text("path") {
            Some(path) => Some(Filebucket::new(path)),
            None => cx.filebucket.clone(),
        }),
        None if name == DEFAULT_BUCKET => Ok(cx.filebucket.clone()),
        None => Err(format!(
            "Could not find filebucket {name} specified in backup"
        )),
    }
}

/// Nothing to do when a bucket is evaluated: it has no state of its own,
/// and its directory is made by the first backup.
struct Bucket;

impl PropertyProvider for Bucket {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("filebucket", "filebucket", Bucket).implicit()
}
