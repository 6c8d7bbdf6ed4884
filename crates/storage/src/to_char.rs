//! PQL's `to_string(FIELD, FORMAT)`: a time written with the patterns of
//! PostgreSQL's `to_char`, on which PuppetDB's function rests (`YYYY`,
//! `MM`, `DD`, `HH24`, `MI`, `SS`, `MS`, `DAY`, `Mon`, `FM`...), in UTC.

use marionette_values::time::{DAYS, MONTHS, Timestamp};

/// Days since the year's start (1 for 1 January).
fn day_of_year(year: i64, month: i64, day: i64) -> i64 {
    const BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let index = usize::try_from(month - 1).unwrap_or(0).min(11);
    BEFORE[index] + day + i64::from(leap && month > 2)
}

/// A name in the case the pattern is written in (`DAY`, `Day`, `day`),
/// padded to `width` unless in fill mode.
fn name(word: &str, pattern: &str, width: usize, fill: bool) -> String {
    let cased = if pattern.chars().all(|c| !c.is_ascii_lowercase()) {
        word.to_uppercase()
    } else if pattern.chars().skip(1).all(|c| c.is_ascii_lowercase())
        && pattern.starts_with(|c: char| c.is_ascii_uppercase())
    {
        word.to_string()
    } else {
        word.to_lowercase()
    };
    if fill {
        cased
    } else {
        format!("{cased:<width$}")
    }
}

fn number(value: i64, width: usize, fill: bool) -> String {
    if fill {
        value.to_string()
    } else {
        format!("{value:0width$}")
    }
}

/// `time` (as the store writes times) with `format`; `None` when it is
/// no time.
pub(crate) fn to_char(time: &str, format: &str) -> Option<String> {
    let stamp = Timestamp::parse(time)?;
    let [year, month, day, hour, minute, second, nanos, weekday] = stamp.parts();
    let month_name = MONTHS[usize::try_from(month - 1).ok()?.min(11)];
    let day_name = DAYS[usize::try_from(weekday).ok()?.min(6)];
    let hour12 = if hour % 12 == 0 { 12 } else { hour % 12 };
    let mut out = String::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        // Text in double quotes is written as it is.
        if c == '"' {
            let inner = &rest[1..];
            let end = inner.find('"').unwrap_or(inner.len());
            out.push_str(&inner[..end]);
            rest = inner.get(end + 1..).unwrap_or("");
            continue;
        }
        if c == '\\' {
            let mut chars = rest[1..].chars();
            if let Some(next) = chars.next() {
                out.push(next);
            }
            rest = chars.as_str();
            continue;
        }
        let (fill, pattern_at) = match rest.get(..2) {
            Some(fm) if fm.eq_ignore_ascii_case("FM") => (true, &rest[2..]),
            _ => (false, rest),
        };
        let upper = pattern_at
            .get(..4.min(pattern_at.len()))
            .unwrap_or("")
            .to_ascii_uppercase();
        let starts = |p: &str| upper.starts_with(p);
        let (text, len) = if starts("HH24") {
            (number(hour, 2, fill), 4)
        } else if starts("HH12") {
            (number(hour12, 2, fill), 4)
        } else if starts("YYYY") {
            (number(year, 4, fill), 4)
        } else if pattern_at.starts_with("MONTH")
            || pattern_at.starts_with("Month")
            || pattern_at.starts_with("month")
        {
            (name(month_name, &pattern_at[..5], 9, fill), 5)
        } else if starts("HH") {
            (number(hour12, 2, fill), 2)
        } else if starts("MI") {
            (number(minute, 2, fill), 2)
        } else if starts("SS") {
            (number(second, 2, fill), 2)
        } else if starts("MS") {
            (number(nanos / 1_000_000, 3, fill), 2)
        } else if starts("US") {
            (number(nanos / 1_000, 6, fill), 2)
        } else if starts("AM") || starts("PM") {
            let marker = if hour < 12 { "AM" } else { "PM" };
            let lower = pattern_at.starts_with(|c: char| c.is_ascii_lowercase());
            (
                if lower {
                    marker.to_lowercase()
                } else {
                    marker.to_string()
                },
                2,
            )
        } else if starts("YYY") {
            (number(year % 1000, 3, fill), 3)
        } else if starts("YY") {
            (number(year % 100, 2, fill), 2)
        } else if starts("MON") {
            (name(&month_name[..3], &pattern_at[..3], 3, true), 3)
        } else if starts("MM") {
            (number(month, 2, fill), 2)
        } else if starts("DAY") {
            (name(day_name, &pattern_at[..3], 9, fill), 3)
        } else if starts("DDD") {
            (number(day_of_year(year, month, day), 3, fill), 3)
        } else if starts("DD") {
            (number(day, 2, fill), 2)
        } else if starts("DY") {
            (name(&day_name[..3], &pattern_at[..2], 3, true), 2)
        } else if starts("D") {
            (number(weekday + 1, 1, fill), 1)
        } else if starts("Y") {
            (number(year % 10, 1, fill), 1)
        } else {
            // Anything else is written as it is (an FM before it too).
            let len = c.len_utf8();
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        };
        out.push_str(&text);
        rest = &pattern_at[len.min(pattern_at.len())..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_as_postgresql_writes_them() {
        let time = "2026-11-20T10:31:01.500Z";
        let with = |format: &str| to_char(time, format).unwrap();
        assert_eq!(with("YYYY-MM-DD HH24:MI:SS.MS"), "2026-11-20 10:31:01.500");
        assert_eq!(with("DAY"), "FRIDAY   ");
        assert_eq!(with("Day"), "Friday   ");
        assert_eq!(
            with("FMDay, FMDD Mon YYYY \"at\" HH12:MI AM"),
            "Friday, 20 Nov 2026 at 10:31 AM"
        );
        assert_eq!(with("Dy DDD D Month MON YY"), "Fri 324 6 November  NOV 26");
        assert_eq!(with("yyyy.mm.dd hh24"), "2026.11.20 10");
        assert_eq!(with("\\Y Q é"), "Y Q é");
        assert_eq!(
            to_char("2026-01-05T23:00:00Z", "FMMM/FMDD HH12 pm").unwrap(),
            "1/5 11 pm"
        );
        assert_eq!(to_char("not a time", "YYYY"), None);
    }

    /// No format makes it panic: every prefix and one-character change
    /// of a busy one.
    #[test]
    fn no_format_makes_it_panic() {
        let format = "FMDay \"q\" MONTH Mon DY DDD D HH12 HH24 AM pm YYYY YY Y MS US é\\";
        let chars: Vec<char> = format.chars().collect();
        for end in 0..=chars.len() {
            let _ = to_char(
                "2026-11-20T10:31:01Z",
                &chars[..end].iter().collect::<String>(),
            );
        }
        for at in 0..chars.len() {
            for replacement in ['"', '\\', 'é', 'M', 'F', 'D'] {
                let mut changed = chars.clone();
                changed[at] = replacement;
                let _ = to_char("2026-11-20T10:31:01Z", &changed.iter().collect::<String>());
            }
        }
    }
}
