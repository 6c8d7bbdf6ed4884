//! `notify`: logs a message on every run.

use marionette_ral::{
    AttrDef, Context, Instance, Level, PropertyProvider, ProviderDef, ProviderError, TypeDef,
};
use marionette_values::Value;

pub fn definition() -> TypeDef {
    TypeDef::new("notify")
        .doc(
            "Logs a message at notice level (or the resource's `loglevel`) each
            time the catalog is applied. Because the message is sent on every run,
            a notify resource always reports a change.",
        )
        // `name` comes first: the message defaults to it.
        .attr(AttrDef::param("name").doc("A label for the message; the default text."))
        .attr(
            AttrDef::property("message")
                .doc("The text to log. Defaults to the resource's name.")
                .default_fn(|resource| resource.get("name").cloned()),
        )
        .attr(
            AttrDef::param("withpath")
                .doc("Whether the log line names the resource's full path instead of just the message.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
}

/// The type manages itself: the message is never "in sync", and syncing it
/// logs it.
struct Notifier;

impl PropertyProvider for Notifier {
    fn get(
        &self,
        _cx: &Context,
        _instance: &Instance<'_>,
        _attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        Ok(None)
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        if attr == "message" {
            let resource = instance.resource;
            let level = match resource
                .meta("loglevel")
                .map(marionette_ral::attribute::value_text)
                .as_deref()
            {
                Some("debug") => Level::Debug,
                Some("info" | "verbose") => Level::Info,
                Some("warning") => Level::Warning,
                Some("err" | "alert" | "emerg" | "crit") => Level::Err,
                _ => Level::Notice,
            };
            let source = if resource.get("withpath") == Some(&Value::Boolean(true)) {
                resource.path()
            } else {
                String::new()
            };
            // The agent logs the value's Ruby text: a hash shows as
            // `{"a"=>1}`.
            let text = match value {
                Value::Hash(_) => marionette_values::format::ruby_inspect(value),
                other => marionette_ral::attribute::value_text(other),
            };
            cx.logger.log(level, &source, &text);
        }
        Ok(())
    }
}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("notify", "notify", Notifier).implicit()
}
