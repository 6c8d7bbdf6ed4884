//! `schedule`: when the resources that name it with the `schedule`
//! metaparameter may be applied. The type only checks and normalizes its
//! attributes; `marionette_ral::schedule` reads them back and decides,
//! with the time a resource was last checked, whether it is due.

use marionette_ral::attribute::{inspect, value_text};
use marionette_ral::schedule::{parse_range, window_value};
use marionette_ral::{AttrDef, PropertyProvider, ProviderDef, Resource, TypeDef};
use marionette_values::Value;

pub fn definition() -> TypeDef {
    TypeDef::new("schedule")
        .doc(
            "A window of time and a rate at which resources may be applied. A
            resource names a schedule with `schedule => NAME`; a run that comes
            outside the schedule skips it (it is reported as skipped and its
            pending refreshes are dropped). A schedule can only hold a resource
            back; it never makes a run happen.

            Every run knows the schedules `puppet` (twice an hour), `hourly`,
            `daily`, `weekly`, `monthly` and `never` without declaring them.
            `--ignoreschedules` applies every resource whatever its schedule.

            When each resource was last checked is kept in `state/state.json`
            under the state directory.

            Example: at most once a day, between 2 and 4 in the morning:

                schedule { 'maintenance': range => '2 - 4', period => daily }
                exec { '/usr/local/sbin/rotate': schedule => 'maintenance' }",
        )
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc("The name resources give as `schedule`."),
        )
        .attr(
            AttrDef::param("range")
                .doc(
                    "The times of day in which resources may be applied:
                    `START - END`, each `H`, `H:MM` or `H:MM:SS` on a 24-hour clock,
                    in the machine's local time, or an array of such windows. A
                    window may cross midnight (`22:00 - 04:00`).",
                )
                .validate(|_, value| each_text(value, |text| parse_range(text).map(|_| ())))
                .munge(|_, value| {
                    let windows = texts(&value)
                        .iter()
                        .map(|text| parse_range(text).map(window_value))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Value::Array(windows.into()))
                }),
        )
        .attr(
            AttrDef::param("periodmatch")
                .doc(
                    "How `period` compares the time of the last check with now:
                    `distance` (the default), whether a whole period has passed
                    (divided by `repeat`); `number`, whether the hour, day, week or
                    month differs.",
                )
                .values(&["number", "distance"])
                .default_value(Value::String("distance".into())),
        )
        .attr(
            AttrDef::param("period")
                .doc(
                    "How often resources may be applied: `hourly`, `daily`, `weekly`
                    or `monthly` (with `repeat`, that many times a period), or
                    `never`. Without it, every run in `range` applies them.",
                )
                .values(&["hourly", "daily", "weekly", "monthly", "never"]),
        )
        .attr(
            AttrDef::param("repeat")
                .doc(
                    "How many times a `period` resources may be applied, a whole
                    number of at least 1 (1 by default). Only with `periodmatch =>
                    distance`.",
                )
                .default_value(Value::Integer(1))
                .validate(|_, value| repeat(value).map(|_| ()))
                .munge(|_, value| repeat(&value).map(Value::Integer)),
        )
        .attr(
            AttrDef::param("weekday")
                .doc(
                    "The days of the week on which resources may be applied: names
                    (`Monday`, `Mon`), or numbers from 0 (Sunday) to 6, alone or in
                    an array. With a `range` that crosses midnight, the day is that
                    of the window's start.",
                )
                .validate(|_, value| match value {
                    Value::Array(days) => days.iter().try_for_each(|day| weekday(day).map(|_| ())),
                    day => weekday(day).map(|_| ()),
                })
                .munge(|_, value| {
                    let mut days = match &value {
                        Value::Array(days) => {
                            days.iter().map(weekday).collect::<Result<Vec<_>, _>>()?
                        }
                        day => vec![weekday(day)?],
                    };
                    days.sort_unstable();
                    days.dedup();
                    Ok(Value::Array(
                        days.into_iter()
                            .map(Value::Integer)
                            .collect::<Vec<_>>()
                            .into(),
                    ))
                }),
        )
        .validate(validate)
}

/// What no single attribute can check: `repeat` only divides a period
/// measured by distance.
fn validate(resource: &Resource) -> Result<(), String> {
    let repeat = match resource.get("repeat") {
        Some(Value::Integer(count)) => *count,
        _ => 1,
    };
    match resource.str("periodmatch") {
        Some(matching) if repeat != 1 && matching != "distance" => Err(format!(
            "Repeat must be 1 unless periodmatch is 'distance', not '{matching}'"
        )),
        _ => Ok(()),
    }
}

/// The strings of a value given alone or in an array.
fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(value_text).collect(),
        other => vec![value_text(other)],
    }
}

/// Checks each element of a value given alone or in an array, each of
/// which must be a string.
fn each_text(value: &Value, check: fn(&str) -> Result<(), String>) -> Result<(), String> {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    items.into_iter().try_for_each(|item| match item {
        Value::String(text) => check(text),
        other => Err(format!("Invalid range value {}", inspect(other))),
    })
}

/// A `repeat` value: a whole number of at least 1, given as a number or a
/// string of digits.
fn repeat(value: &Value) -> Result<i64, String> {
    let count = match value {
        Value::Integer(count) => Some(*count),
        Value::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            text.parse().ok()
        }
        _ => None,
    };
    match count {
        Some(count) if count >= 1 => Ok(count),
        Some(_) => Err("Repeat must be at least 1".into()),
        None => Err("Repeat must be a number".into()),
    }
}

/// A day of the week as a number from 0 (Sunday) to 6: the number, as an
/// integer or a string, or the day's English name, whole or abbreviated
/// (`Tue`, `Tues`, `Tuesday`), in any case.
fn weekday(value: &Value) -> Result<i64, String> {
    // The stems Puppet accepts, each alone or followed by "day".
    const STEMS: [&[&str]; 7] = [
        &["sun"],
        &["mon"],
        &["tue", "tues"],
        &["wed", "wednes"],
        &["thu", "thurs"],
        &["fri"],
        &["sat", "satur"],
    ];
    let invalid = || format!("{} is not a valid day of the week", value_text(value));
    match value {
        Value::Integer(day) if (0..=6).contains(day) => Ok(*day),
        Value::String(text) => {
            if let [digit @ b'0'..=b'6'] = text.as_bytes() {
                return Ok(i64::from(digit - b'0'));
            }
            let lower = text.to_ascii_lowercase();
            let stem = lower.strip_suffix("day").unwrap_or(&lower);
            STEMS
                .iter()
                .position(|stems| stems.contains(&stem))
                .map(|day| day as i64)
                .ok_or_else(invalid)
        }
        _ => Err(invalid()),
    }
}

/// A schedule has nothing to change on the machine.
struct Schedule;

impl PropertyProvider for Schedule {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("schedule", "schedule", Schedule).implicit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekdays_are_numbers_or_names() {
        for (given, day) in [
            (Value::Integer(0), 0),
            (Value::String("6".into()), 6),
            (Value::String("Tue".into()), 2),
            (Value::String("tuesday".into()), 2),
            (Value::String("Tues".into()), 2),
            (Value::String("WEDNESDAY".into()), 3),
            (Value::String("Thurs".into()), 4),
            (Value::String("Saturday".into()), 6),
        ] {
            assert_eq!(weekday(&given), Ok(day), "{given:?}");
        }
        for wrong in [
            Value::Integer(7),
            Value::String("7".into()),
            Value::String("Funday".into()),
        ] {
            assert!(weekday(&wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn repeat_is_a_whole_number_of_at_least_one() {
        assert_eq!(repeat(&Value::Integer(3)), Ok(3));
        assert_eq!(repeat(&Value::String("12".into())), Ok(12));
        assert_eq!(
            repeat(&Value::String("x".into())),
            Err("Repeat must be a number".into())
        );
        assert_eq!(
            repeat(&Value::Integer(0)),
            Err("Repeat must be at least 1".into())
        );
    }
}
