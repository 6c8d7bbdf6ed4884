//! Schedules: when a resource that names one with the `schedule`
//! metaparameter is due. The `schedule` type (in the types crate) checks
//! and normalizes the attributes with [`parse_range`] and
//! [`window_value`]; the transaction builds a [`Schedule`] from the
//! declared resource, or from one of the schedules every run knows
//! ([`Schedule::implicit`]), and asks [`Schedule::due`] with the time the
//! resource was last checked.
//!
//! Times of day are the machine's local time, as Puppet reads them.

use crate::resource::Resource;
use marionette_values::Value;

/// A time of day: hours, minutes, seconds.
pub type Clock = [i64; 3];

/// The names of the schedules a run has without declaring them.
pub const IMPLICIT: [&str; 6] = ["puppet", "hourly", "daily", "weekly", "monthly", "never"];

/// How often a schedule lets its resources be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Hourly,
    Daily,
    Weekly,
    Monthly,
    Never,
}

impl Period {
    fn named(name: &str) -> Option<Period> {
        Some(match name {
            "hourly" => Period::Hourly,
            "daily" => Period::Daily,
            "weekly" => Period::Weekly,
            "monthly" => Period::Monthly,
            "never" => Period::Never,
            _ => return None,
        })
    }

    /// The period's length in seconds, a month counting 30 days.
    fn seconds(self) -> i64 {
        match self {
            Period::Hourly => 3_600,
            Period::Daily => 86_400,
            Period::Weekly => 604_800,
            Period::Monthly => 2_592_000,
            Period::Never => i64::MAX,
        }
    }
}

/// A schedule, read from a `schedule` resource's normalized attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Times of day in which resources may be applied; any time when empty.
    pub windows: Vec<[Clock; 2]>,
    pub period: Option<Period>,
    /// Periods compared by calendar number (same hour, day...) rather than
    /// by the time elapsed.
    pub by_number: bool,
    /// How many times a period resources may be applied.
    pub repeat: i64,
    /// Days of the week (0 is Sunday); any day when empty.
    pub weekdays: Vec<i64>,
}

impl Schedule {
    /// One of the schedules every run has: `puppet` (twice an hour) and
    /// one per period, named after it.
    pub fn implicit(name: &str) -> Option<Schedule> {
        let (period, repeat) = match name {
            "puppet" => (Period::Hourly, 2),
            other => (Period::named(other)?, 1),
        };
        Some(Schedule {
            windows: Vec::new(),
            period: Some(period),
            by_number: false,
            repeat,
            weekdays: Vec::new(),
        })
    }

    /// The schedule a `schedule` resource declares.
    pub fn of(resource: &Resource) -> Schedule {
        let repeat = match resource.get("repeat") {
            Some(Value::Integer(count)) if *count >= 1 => *count,
            _ => 1,
        };
        let weekdays = match resource.get("weekday") {
            Some(Value::Array(days)) => days
                .iter()
                .filter_map(|day| match day {
                    Value::Integer(day) => Some(*day),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        Schedule {
            windows: resource.get("range").map(windows).unwrap_or_default(),
            period: resource.str("period").and_then(Period::named),
            by_number: resource.str("periodmatch") == Some("number"),
            repeat,
            weekdays,
        }
    }

    /// Whether a resource last checked at `previous` (seconds since the
    /// epoch; `None` when it never was) is due at `now`.
    pub fn due(&self, previous: Option<i64>, now: i64) -> bool {
        self.in_window(now) && self.period_passed(previous, now) && self.on_weekday(now)
    }

    fn weekday_matches(&self, day: i64) -> bool {
        self.weekdays.is_empty() || self.weekdays.contains(&day)
    }

    /// With a range, the weekday is checked against the day its window
    /// started (see [`Schedule::in_window`]).
    fn on_weekday(&self, now: i64) -> bool {
        !self.windows.is_empty() || self.weekday_matches(local(now).weekday)
    }

    /// Whether `now` falls in one of the windows (both ends included) on
    /// one of the days. A window that ends before it starts crosses
    /// midnight: it belongs to the day on which it started.
    fn in_window(&self, now: i64) -> bool {
        if self.windows.is_empty() {
            return true;
        }
        let today = local(now);
        self.windows.iter().any(|[start, end]| {
            let from = today.at(0, *start);
            let until = today.at(0, *end);
            if from < until {
                (from..=until).contains(&now) && self.weekday_matches(today.weekday)
            } else if (from..=today.at(1, *end)).contains(&now) {
                self.weekday_matches(today.weekday)
            } else {
                (today.at(-1, *start)..=until).contains(&now)
                    && self.weekday_matches((today.weekday + 6) % 7)
            }
        })
    }

    fn period_passed(&self, previous: Option<i64>, now: i64) -> bool {
        let Some(period) = self.period else {
            return true;
        };
        if period == Period::Never {
            return false;
        }
        // A resource never checked is due (Puppet compares with the epoch,
        // which by calendar number can look like the current hour or day).
        let Some(previous) = previous else {
            return true;
        };
        if !self.by_number {
            return now - previous >= period.seconds() / self.repeat;
        }
        let (was, is) = (local(previous), local(now));
        match period {
            Period::Hourly => (was.year, was.yday, was.hour) != (is.year, is.yday, is.hour),
            Period::Daily => (was.year, was.yday) != (is.year, is.yday),
            Period::Monthly => (was.year, was.month) != (is.year, is.month),
            // A new week has begun when the weekday went back, or when more
            // than a week has passed.
            Period::Weekly => was.weekday > is.weekday || now - previous > Period::Weekly.seconds(),
            Period::Never => false,
        }
    }
}

/// A moment in the machine's local time.
#[derive(Clone, Copy, Debug)]
struct Local {
    year: i64,
    month: i64,
    mday: i64,
    yday: i64,
    hour: i64,
    weekday: i64,
}

impl Local {
    /// The moment at `clock` on this day moved by `days`, in seconds since
    /// the epoch (the C library settles daylight saving time).
    fn at(&self, days: i64, clock: Clock) -> i64 {
        // SAFETY: an all-zero `tm` is valid; mktime(3) only reads and
        // normalizes the structure it is given.
        unsafe {
            let mut tm: libc::tm = std::mem::zeroed();
            tm.tm_year = (self.year - 1900) as libc::c_int;
            tm.tm_mon = (self.month - 1) as libc::c_int;
            tm.tm_mday = (self.mday + days) as libc::c_int;
            tm.tm_hour = clock[0] as libc::c_int;
            tm.tm_min = clock[1] as libc::c_int;
            tm.tm_sec = clock[2] as libc::c_int;
            tm.tm_isdst = -1;
            libc::mktime(&mut tm)
        }
    }
}

fn local(seconds: i64) -> Local {
    // SAFETY: localtime_r(3) writes only into the `tm` given; an all-zero
    // `tm` is valid to start from.
    let tm = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        let time = seconds as libc::time_t;
        libc::localtime_r(&time, &mut tm);
        tm
    };
    Local {
        year: i64::from(tm.tm_year) + 1900,
        month: i64::from(tm.tm_mon) + 1,
        mday: i64::from(tm.tm_mday),
        yday: i64::from(tm.tm_yday),
        hour: i64::from(tm.tm_hour),
        weekday: i64::from(tm.tm_wday),
    }
}

/// Parses a `range` window, `START - END`. Each end is up to three
/// colon-separated numbers, the missing ones 0; the hours must be 0 to 23
/// and the minutes and seconds 0 to 59.
pub fn parse_range(text: &str) -> Result<[Clock; 2], String> {
    let invalid = || format!("Invalid range value '{text}'");
    let (start, end) = text.split_once('-').ok_or_else(invalid)?;
    let start = parse_clock(start.trim()).ok_or_else(invalid)?;
    let end = parse_clock(end.trim()).ok_or_else(invalid)?;
    for clock in [start, end] {
        if !(0..=23).contains(&clock[0]) {
            return Err(format!("Invalid hour '{}'", clock[0]));
        }
        if !(0..=59).contains(&clock[1]) {
            return Err(format!("Invalid minute '{}'", clock[1]));
        }
        if !(0..=59).contains(&clock[2]) {
            return Err(format!("Invalid second '{}'", clock[2]));
        }
    }
    Ok([start, end])
}

/// `H`, `H:M` or `H:M:S`, each part digits.
fn parse_clock(text: &str) -> Option<Clock> {
    let mut clock = [0; 3];
    let mut parts = text.split(':');
    for slot in &mut clock {
        match parts.next() {
            Some(part)
                if (1..=9).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit()) =>
            {
                *slot = part.parse().ok()?;
            }
            Some(_) => return None,
            None => break,
        }
    }
    parts.next().is_none().then_some(clock)
}

/// A window as the `range` attribute keeps it: `[[H, M, S], [H, M, S]]`.
pub fn window_value(window: [Clock; 2]) -> Value {
    let clock = |c: Clock| {
        Value::Array(
            c.iter()
                .map(|n| Value::Integer(*n))
                .collect::<Vec<_>>()
                .into(),
        )
    };
    Value::Array(vec![clock(window[0]), clock(window[1])].into())
}

/// The windows of a normalized `range`.
fn windows(value: &Value) -> Vec<[Clock; 2]> {
    let clock = |value: &Value| -> Option<Clock> {
        let Value::Array(parts) = value else {
            return None;
        };
        let mut clock = [0; 3];
        if parts.len() != 3 {
            return None;
        }
        for (slot, part) in clock.iter_mut().zip(parts.iter()) {
            let Value::Integer(n) = part else {
                return None;
            };
            *slot = *n;
        }
        Some(clock)
    };
    let Value::Array(windows) = value else {
        return Vec::new();
    };
    windows
        .iter()
        .filter_map(|window| match window {
            Value::Array(ends) if ends.len() == 2 => Some([clock(&ends[0])?, clock(&ends[1])?]),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A moment of today in local time.
    fn today_at(clock: Clock) -> i64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64;
        local(now).at(0, clock)
    }

    fn window(range: &str) -> Schedule {
        Schedule {
            windows: vec![parse_range(range).unwrap()],
            period: None,
            by_number: false,
            repeat: 1,
            weekdays: Vec::new(),
        }
    }

    #[test]
    fn ranges_are_read_as_puppet_reads_them() {
        assert_eq!(parse_range("2 - 4"), Ok([[2, 0, 0], [4, 0, 0]]));
        assert_eq!(parse_range("1:30-4:30:15"), Ok([[1, 30, 0], [4, 30, 15]]));
        assert_eq!(parse_range("22:00 - 04:00"), Ok([[22, 0, 0], [4, 0, 0]]));
        assert_eq!(parse_range("24 - 4"), Err("Invalid hour '24'".into()));
        assert_eq!(parse_range("2:60 - 4"), Err("Invalid minute '60'".into()));
        assert_eq!(
            parse_range("2 to 4"),
            Err("Invalid range value '2 to 4'".into())
        );
        assert_eq!(
            parse_range("2 - 4 - 6"),
            Err("Invalid range value '2 - 4 - 6'".into())
        );
        assert_eq!(
            parse_range("2:3:4:5 - 6"),
            Err("Invalid range value '2:3:4:5 - 6'".into())
        );
        let value = Value::Array(vec![window_value([[22, 0, 0], [4, 30, 0]])].into());
        assert_eq!(windows(&value), vec![[[22, 0, 0], [4, 30, 0]]]);
    }

    #[test]
    fn a_window_includes_its_ends_and_may_cross_midnight() {
        let inside = today_at([10, 30, 0]);
        assert!(window("10 - 11").due(None, inside));
        assert!(window("10:30 - 11").due(None, inside));
        assert!(window("9 - 10:30").due(None, inside));
        assert!(!window("11 - 12").due(None, inside));
        // Crossing midnight: 22:00 to 11:00 holds 10:30, 22:00 to 10:00 does not.
        assert!(window("22 - 11").due(None, inside));
        assert!(!window("22 - 10").due(None, inside));
        assert!(window("22 - 10").due(None, today_at([23, 0, 0])));
    }

    #[test]
    fn a_crossing_window_belongs_to_the_day_it_started() {
        let early = today_at([1, 0, 0]);
        let today = local(early).weekday;
        let yesterday = (today + 6) % 7;
        let on = |day| Schedule {
            weekdays: vec![day],
            ..window("22 - 4")
        };
        assert!(on(yesterday).due(None, early));
        assert!(!on(today).due(None, early));
        // Without a range, the day is today's.
        let plain = Schedule {
            weekdays: vec![today],
            ..Schedule::implicit("daily").unwrap()
        };
        assert!(plain.due(None, early));
        assert!(
            !Schedule {
                weekdays: vec![yesterday],
                ..plain
            }
            .due(None, early)
        );
    }

    #[test]
    fn periods_by_distance_divide_by_repeat() {
        let now = today_at([12, 0, 0]);
        let daily = Schedule::implicit("daily").unwrap();
        assert!(daily.due(None, now));
        assert!(!daily.due(Some(now - 86_399), now));
        assert!(daily.due(Some(now - 86_400), now));
        let puppet = Schedule::implicit("puppet").unwrap();
        assert!(!puppet.due(Some(now - 1_799), now));
        assert!(puppet.due(Some(now - 1_800), now));
        assert!(!Schedule::implicit("never").unwrap().due(None, now));
        assert!(
            Schedule::implicit("weekly")
                .unwrap()
                .due(Some(now - 604_800), now)
        );
        assert!(
            !Schedule::implicit("monthly")
                .unwrap()
                .due(Some(now - 604_800), now)
        );
        assert_eq!(Schedule::implicit("yearly"), None);
    }

    #[test]
    fn periods_by_number_compare_the_calendar() {
        let noon = today_at([12, 0, 0]);
        let by_number = |name| Schedule {
            by_number: true,
            ..Schedule::implicit(name).unwrap()
        };
        // Five minutes apart but in another hour.
        assert!(by_number("hourly").due(Some(today_at([11, 58, 0])), today_at([12, 3, 0])));
        assert!(!by_number("hourly").due(Some(today_at([12, 1, 0])), today_at([12, 59, 0])));
        assert!(!by_number("daily").due(Some(today_at([0, 0, 1])), noon));
        assert!(by_number("daily").due(Some(noon - 86_400), noon));
        assert!(!by_number("monthly").due(Some(noon - 1), noon));
        assert!(by_number("weekly").due(Some(noon - 8 * 86_400), noon));
    }
}
