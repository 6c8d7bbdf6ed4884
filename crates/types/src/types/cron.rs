//! `cron`: jobs in users' crontabs. Puppet 7 moved this type to the
//! `cron_core` module; marionette ships it.

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, Resource, TypeDef};
use marionette_values::Value;

/// The five time fields, with their ranges and the names they accept.
pub const FIELDS: &[(&str, u32, u32, &[&str])] = &[
    ("minute", 0, 59, &[]),
    ("hour", 0, 23, &[]),
    ("monthday", 1, 31, &[]),
    (
        "month",
        1,
        12,
        &[
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ],
    ),
    (
        "weekday",
        0,
        7,
        &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
    ),
];

/// The `@` schedules cron knows.
pub const SPECIALS: &[&str] = &[
    "reboot", "yearly", "annually", "monthly", "weekly", "daily", "midnight", "hourly",
];

/// Whether one element of a time field is valid: `*`, a number or name in
/// range, a range `a-b`, any of those with a step `/n`.
fn valid_element(text: &str, min: u32, max: u32, names: &[&str]) -> bool {
    let (base, step) = match text.split_once('/') {
        Some((base, step)) => (base, Some(step)),
        None => (text, None),
    };
    if step.is_some_and(|s| s.parse::<u32>().map_or(true, |n| n == 0)) {
        return false;
    }
    let number = |part: &str| -> bool {
        part.parse::<u32>().is_ok_and(|n| n >= min && n <= max)
            || names.iter().any(|name| name.eq_ignore_ascii_case(part))
    };
    base == "*"
        || match base.split_once('-') {
            Some((from, to)) => number(from) && number(to),
            None => number(base),
        }
}

/// A time field's desired value as crontab text: elements joined by
/// commas, `*` when absent.
pub fn field_text(value: &Value) -> String {
    let parts: Vec<String> = match value {
        Value::Array(items) => items.iter().map(value_text).collect(),
        other => vec![value_text(other)],
    };
    let parts: Vec<String> = parts
        .into_iter()
        .filter(|p| !p.is_empty() && p != "absent")
        .collect();
    if parts.is_empty() {
        "*".to_string()
    } else {
        parts.join(",")
    }
}

/// A value's elements: an array's items, or the value itself.
fn elements(value: &Value) -> impl Iterator<Item = &Value> {
    let items: &[Value] = match value {
        Value::Array(items) => items,
        other => std::slice::from_ref(other),
    };
    items.iter()
}

/// Time fields compare as crontab text, so `['0', '30']` matches `0,30`
/// and a missing field matches `*`.
fn field_insync(_resource: &Resource, current: &Value, desired: &Value) -> bool {
    field_text(current) == field_text(desired)
}

fn time_field(name: &'static str, min: u32, max: u32, names: &'static [&'static str]) -> AttrDef {
    AttrDef::property(name)
        .doc(match name {
            "minute" => {
                "The minutes (0–59) the job runs at: numbers, ranges `a-b`, steps `*/n`, or `*`."
            }
            "hour" => "The hours (0–23) the job runs at.",
            "monthday" => "The days of the month (1–31) the job runs on.",
            "month" => "The months (1–12, or jan–dec) the job runs in.",
            _ => "The days of the week (0–7, 0 and 7 being Sunday, or sun–sat) the job runs on.",
        })
        .array_matching(marionette_ral::ArrayMatching::All)
        // Taken whole, to become a list of strings as Puppet keeps it: its
        // messages show `['1', '13']`, a single value included.
        .whole_value()
        .validate(move |_, value| {
            for item in elements(value) {
                let text = value_text(item);
                if text != "absent" && !text.split(',').all(|e| valid_element(e, min, max, names)) {
                    return Err(format!("{text} is not a valid {name}"));
                }
            }
            Ok(())
        })
        .munge(|_, value| {
            if value_text(&value) == "absent" {
                return Ok(value);
            }
            let items: Vec<Value> = elements(&value)
                .map(|item| Value::String(value_text(item).into()))
                .collect();
            Ok(Value::Array(items.into()))
        })
        .insync(field_insync)
}

pub fn definition() -> TypeDef {
    let mut type_def = TypeDef::new("cron")
        .doc(
            "Manages a job in a user's crontab. Each managed job is marked in the
            crontab by a `# Puppet Name: NAME` comment line above it, as Puppet
            does, so jobs written by Puppet are recognized; other lines of the
            crontab are kept as they are.",
        )
        .ensurable()
        .attr(
            AttrDef::property("command")
                .doc("The command to run, as cron runs it (through the user's shell).")
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.is_empty() || text.contains('\n') {
                        Err("The command must be one non-empty line".into())
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            AttrDef::property("special")
                .doc("A schedule cron names, instead of the time fields: `reboot`, `yearly`, `annually`, `monthly`, `weekly`, `daily`, `midnight` or `hourly`.")
                .values(SPECIALS)
                .values(&["absent"]),
        );
    for (name, min, max, names) in FIELDS {
        type_def = type_def.attr(time_field(name, *min, *max, names));
    }
    type_def
        .attr(
            AttrDef::property("environment")
                .doc("Variables set above the job, as `NAME=value` strings.")
                .array_matching(marionette_ral::ArrayMatching::All)
                .validate(|_, value| {
                    let text = value_text(value);
                    // A line break would write a crontab line of its own.
                    if text.contains(['\n', '\r']) {
                        return Err(format!(
                            "Invalid environment setting {text:?}: it must be one line"
                        ));
                    }
                    match text.split_once('=') {
                        Some((name, _))
                            if !name.is_empty() && !name.contains(char::is_whitespace) =>
                        {
                            Ok(())
                        }
                        _ if text == "absent" => Ok(()),
                        _ => Err(format!(
                            "Invalid environment setting {text:?}: expected NAME=value"
                        )),
                    }
                }),
        )
        .attr(
            AttrDef::param("name")
                .doc("The job's name, written in the crontab above it.")
                .namevar()
                // The name is written in a comment line: a line break would
                // start a crontab line of its own.
                .validate(|_, value| {
                    if value_text(value).contains(['\n', '\r']) {
                        Err("The job's name must be one line".into())
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            AttrDef::param("user")
                .doc("The user whose crontab holds the job; root by default.")
                .default_value(Value::String("root".into())),
        )
        .attr(
            AttrDef::param("target")
                .doc("The crontab to edit, named by its user; the `user` by default."),
        )
        .validate(|resource| {
            let special = resource.text("special").filter(|s| s != "absent");
            if special.is_some() && FIELDS.iter().any(|(name, ..)| resource.is_given(name)) {
                return Err(
                    "special cannot be combined with minute, hour, monthday, month or weekday"
                        .into(),
                );
            }
            // A job without a command is refused only when it would be
            // created, as Puppet's provider refuses it: changing one field
            // of an existing job (`resource cron NAME hour=3`) needs none.
            Ok(())
        })
        .auto(
            marionette_ral::AutoKind::Require,
            "user",
            marionette_ral::Titles::Attribute("user".into()),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_elements() {
        assert!(valid_element("*", 0, 59, &[]));
        assert!(valid_element("*/15", 0, 59, &[]));
        assert!(valid_element("1-5", 0, 7, &[]));
        assert!(valid_element("mon", 0, 7, &["sun", "mon"]));
        assert!(!valid_element("60", 0, 59, &[]));
        assert!(!valid_element("*/0", 0, 59, &[]));
        assert!(!valid_element("x", 0, 59, &[]));
        assert_eq!(
            field_text(&Value::Array(
                vec![Value::String("0".into()), Value::String("30".into())].into()
            )),
            "0,30"
        );
        assert_eq!(field_text(&Value::String("absent".into())), "*");
    }
}
