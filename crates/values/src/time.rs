//! Timespans and timestamps, kept as whole nanoseconds.
//!
//! Puppet prints a timespan as `D-HH:MM:SS.F` (`0-01:30:00.0`) and a
//! timestamp in UTC as `2020-01-01T00:00:00.000000000 UTC`. Calendar
//! arithmetic uses the proleptic Gregorian calendar (days from civil dates,
//! after Howard Hinnant's algorithms), so no time zone database is needed
//! for UTC.

const NANOS_PER_SECOND: i64 = 1_000_000_000;
const SECONDS_PER_DAY: i64 = 86_400;

/// A length of time in nanoseconds (negative for spans backwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timespan(pub i64);

/// The months' names in English, January first.
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The days' names in English, Sunday first.
pub const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// A point in time: nanoseconds since 1970-01-01T00:00:00 UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timespan {
    pub fn from_seconds(seconds: f64) -> Option<Timespan> {
        let nanos = seconds * NANOS_PER_SECOND as f64;
        (nanos.is_finite() && nanos.abs() < i64::MAX as f64).then(|| Timespan(nanos.round() as i64))
    }

    pub fn seconds(self) -> f64 {
        self.0 as f64 / NANOS_PER_SECOND as f64
    }

    /// Parses `D-HH:MM:SS.F`, `HH:MM:SS`, `MM:SS` (an optional leading `-`,
    /// an optional fraction of a second).
    pub fn parse(text: &str) -> Option<Timespan> {
        let (negative, text) = match text.trim().strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.trim()),
        };
        let (days, clock) = match text.split_once('-') {
            Some((days, clock)) => (days.parse::<i64>().ok()?, clock),
            None => (0, text),
        };
        let (clock, fraction) = match clock.split_once('.') {
            Some((clock, fraction)) => (clock, Some(fraction)),
            None => (clock, None),
        };
        let parts: Vec<i64> = clock
            .split(':')
            .map(|p| p.parse::<i64>().ok())
            .collect::<Option<_>>()?;
        let (hours, minutes, seconds) = match parts.as_slice() {
            [h, m, s] => (*h, *m, *s),
            [m, s] => (0, *m, *s),
            _ => return None,
        };
        let mut nanos = ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
        nanos = nanos.checked_mul(NANOS_PER_SECOND)?;
        if let Some(fraction) = fraction {
            if fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let digits: String = fraction
                .chars()
                .chain(std::iter::repeat('0'))
                .take(9)
                .collect();
            nanos += digits.parse::<i64>().ok()?;
        }
        Some(Timespan(if negative { -nanos } else { nanos }))
    }

    /// Parses with an explicit `strftime`-like format using `%D %H %M %S %L
    /// %N` (days, hours, minutes, seconds, milliseconds, nanoseconds).
    pub fn parse_with_format(text: &str, format: &str) -> Option<Timespan> {
        let mut nanos: i64 = 0;
        let mut input = text.chars().peekable();
        let mut spec = format.chars();
        while let Some(c) = spec.next() {
            if c != '%' {
                if input.next() != Some(c) {
                    return None;
                }
                continue;
            }
            let unit = match spec.next()? {
                'D' => SECONDS_PER_DAY * NANOS_PER_SECOND,
                'H' => 3600 * NANOS_PER_SECOND,
                'M' => 60 * NANOS_PER_SECOND,
                'S' => NANOS_PER_SECOND,
                'L' => 1_000_000,
                'N' => 1,
                '%' => {
                    if input.next() != Some('%') {
                        return None;
                    }
                    continue;
                }
                _ => return None,
            };
            let mut digits = String::new();
            while let Some(d) = input.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                input.next();
            }
            nanos = nanos.checked_add(digits.parse::<i64>().ok()?.checked_mul(unit)?)?;
        }
        input.next().is_none().then_some(Timespan(nanos))
    }
}

impl std::fmt::Display for Timespan {
    /// `D-HH:MM:SS.F`, where F is the milliseconds without trailing zeros,
    /// as Puppet prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let total = self.0.unsigned_abs();
        let nanos_per_second = NANOS_PER_SECOND as u64;
        let seconds = total / nanos_per_second;
        let millis = (total % nanos_per_second) / 1_000_000;
        let days = seconds / SECONDS_PER_DAY as u64;
        let hours = seconds / 3600 % 24;
        let minutes = seconds / 60 % 60;
        let secs = seconds % 60;
        let fraction = millis.to_string();
        let fraction = fraction.trim_end_matches('0');
        let fraction = if fraction.is_empty() { "0" } else { fraction };
        write!(
            f,
            "{sign}{days}-{hours:02}:{minutes:02}:{secs:02}.{fraction}"
        )
    }
}

/// Days since 1970-01-01 of a civil date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = if year >= 0 { year } else { year - 399 } / 400;
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl Timestamp {
    /// The current time (`Timestamp()` and `Timestamp.new()`).
    pub fn now() -> Timestamp {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| {
                i64::try_from(elapsed.as_nanos()).unwrap_or(i64::MAX)
            });
        Timestamp(nanos)
    }

    pub fn from_seconds(seconds: f64) -> Option<Timestamp> {
        Timespan::from_seconds(seconds).map(|span| Timestamp(span.0))
    }

    /// Parses ISO 8601: `YYYY-MM-DD`, optionally `THH:MM:SS`, a fraction, and
    /// `Z` or an offset `±HH:MM`.
    pub fn parse(text: &str) -> Option<Timestamp> {
        let text = text.trim();
        let number = |s: &str| s.parse::<i64>().ok();
        // `get` rather than slicing: the text may hold any characters.
        let (date, rest) = (text.get(..10)?, text.get(10..)?);
        let mut fields = date.split('-');
        let (year, month, day) = (
            number(fields.next()?)?,
            number(fields.next()?)?,
            number(fields.next()?)?,
        );
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return None;
        }
        let mut seconds = days_from_civil(year, month, day) * SECONDS_PER_DAY;
        let mut nanos = 0;
        let mut rest = rest;
        if let Some(time) = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' ')) {
            let end = time
                .find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.'))
                .unwrap_or(time.len());
            let (clock, zone) = time.split_at(end);
            let (clock, fraction) = match clock.split_once('.') {
                Some((clock, fraction)) => (clock, fraction),
                None => (clock, ""),
            };
            let parts: Vec<i64> = clock.split(':').map(number).collect::<Option<_>>()?;
            let (h, m, s) = match parts.as_slice() {
                [h, m, s] => (*h, *m, *s),
                [h, m] => (*h, *m, 0),
                _ => return None,
            };
            seconds += h * 3600 + m * 60 + s;
            if !fraction.is_empty() {
                let digits: String = fraction
                    .chars()
                    .chain(std::iter::repeat('0'))
                    .take(9)
                    .collect();
                nanos = number(&digits)?;
            }
            rest = zone;
        }
        match rest {
            "" | "Z" | "UTC" | " UTC" => {}
            offset => {
                let (sign, hm) = match offset.trim().split_at_checked(1)? {
                    ("+", hm) => (1, hm),
                    ("-", hm) => (-1, hm),
                    _ => return None,
                };
                let (h, m) = hm
                    .split_once(':')
                    .unwrap_or((hm.get(..2)?, hm.get(2..).unwrap_or("0")));
                seconds -= sign * (number(h)? * 3600 + number(m)? * 60);
            }
        }
        Some(Timestamp(seconds.checked_mul(NANOS_PER_SECOND)? + nanos))
    }

    /// The UTC date and time parts: year, month, day, hour, minute,
    /// second, nanosecond, and the weekday (0 is Sunday).
    pub fn parts(self) -> [i64; 8] {
        let seconds = self.0.div_euclid(NANOS_PER_SECOND);
        let nanos = self.0.rem_euclid(NANOS_PER_SECOND);
        let days = seconds.div_euclid(SECONDS_PER_DAY);
        let of_day = seconds.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        let weekday = (days + 4).rem_euclid(7);
        [
            year,
            month,
            day,
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60,
            nanos,
            weekday,
        ]
    }

    /// Formats with `strftime` directives (UTC only).
    pub fn format(self, format: &str) -> String {
        let [year, month, day, hour, minute, second, nanos, weekday] = self.parts();
        let mut out = String::new();
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let Some(directive) = chars.next() else {
                out.push('%');
                break;
            };
            let month_name = MONTHS[(month - 1) as usize];
            let day_name = DAYS[weekday as usize];
            let piece = match directive {
                'Y' => year.to_string(),
                'C' => (year / 100).to_string(),
                'y' => format!("{:02}", year % 100),
                'm' => format!("{month:02}"),
                'B' => month_name.to_string(),
                'b' | 'h' => month_name[..3].to_string(),
                'd' => format!("{day:02}"),
                'e' => format!("{day:2}"),
                'j' => format!(
                    "{:03}",
                    days_from_civil(year, month, day) - days_from_civil(year, 1, 1) + 1
                ),
                'H' => format!("{hour:02}"),
                'k' => format!("{hour:2}"),
                'I' => format!("{:02}", if hour % 12 == 0 { 12 } else { hour % 12 }),
                'l' => format!("{:2}", if hour % 12 == 0 { 12 } else { hour % 12 }),
                'P' => (if hour < 12 { "am" } else { "pm" }).to_string(),
                'p' => (if hour < 12 { "AM" } else { "PM" }).to_string(),
                'M' => format!("{minute:02}"),
                'S' => format!("{second:02}"),
                'L' => format!("{:03}", nanos / 1_000_000),
                'N' => format!("{nanos:09}"),
                'z' => "+0000".to_string(),
                'Z' => "UTC".to_string(),
                'A' => day_name.to_string(),
                'a' => day_name[..3].to_string(),
                'u' => (if weekday == 0 { 7 } else { weekday }).to_string(),
                'w' => weekday.to_string(),
                's' => self.0.div_euclid(NANOS_PER_SECOND).to_string(),
                'F' => format!("{year}-{month:02}-{day:02}"),
                'T' => format!("{hour:02}:{minute:02}:{second:02}"),
                'D' => format!("{month:02}/{day:02}/{:02}", year % 100),
                'R' => format!("{hour:02}:{minute:02}"),
                '%' => "%".to_string(),
                other => format!("%{other}"),
            };
            out.push_str(&piece);
        }
        out
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format("%Y-%m-%dT%H:%M:%S.%N %Z"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timespans_print_as_puppet_does() {
        assert_eq!(
            Timespan::from_seconds(3600.0).unwrap().to_string(),
            "0-01:00:00.0"
        );
        assert_eq!(
            Timespan::from_seconds(90.5).unwrap().to_string(),
            "0-00:01:30.5"
        );
        assert_eq!(
            Timespan::parse("1-02:03:04").unwrap().to_string(),
            "1-02:03:04.0"
        );
        assert_eq!(
            Timespan::from_seconds(-5.0).unwrap().to_string(),
            "-0-00:00:05.0"
        );
    }

    #[test]
    fn timestamps_parse_and_print_in_utc() {
        let t = Timestamp::parse("2021-06-15T12:30:45.123Z").unwrap();
        assert_eq!(t.to_string(), "2021-06-15T12:30:45.123000000 UTC");
        assert_eq!(
            Timestamp::parse("2020-01-01T02:00:00+02:00")
                .unwrap()
                .to_string(),
            "2020-01-01T00:00:00.000000000 UTC"
        );
        assert_eq!(Timestamp(0).format("%A %j %F"), "Thursday 001 1970-01-01");
        assert_eq!(Timestamp::parse("2020-01-0\u{e9}"), None);
    }
}
