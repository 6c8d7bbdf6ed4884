//! `inventory.txt`: one line per certificate the CA ever signed,
//! `0x0002 2026-11-24T10:00:00UTC 2031-11-23T10:00:00UTC /CN=agent1`, which
//! Puppet's tools read and `revoke` consults to find every certificate a
//! name was given.

use std::path::Path;

use time::OffsetDateTime;

use crate::error::CaError;
use crate::files;

/// Puppet's date form in the inventory and the status API.
pub(crate) fn format_time(t: OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

fn parse_time(s: &str) -> Option<OffsetDateTime> {
    let s = s.strip_suffix("UTC")?;
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<u32>().ok();
    if s.len() != 19 {
        return None;
    }
    let month = time::Month::try_from(u8::try_from(num(5..7)?).ok()?).ok()?;
    let date =
        time::Date::from_calendar_date(i32::try_from(num(0..4)?).ok()?, month, num(8..10)? as u8)
            .ok()?;
    let clock =
        time::Time::from_hms(num(11..13)? as u8, num(14..16)? as u8, num(17..19)? as u8).ok()?;
    Some(date.with_time(clock).assume_utc())
}

/// The line for a certificate.
pub(crate) fn line(
    serial: u128,
    not_before: OffsetDateTime,
    not_after: OffsetDateTime,
    subject: &str,
) -> String {
    format!(
        "0x{} {} {} /{subject}\n",
        crate::serial::format(serial),
        format_time(not_before),
        format_time(not_after)
    )
}

/// Appends a line; the whole file is rewritten atomically, as puppetserver
/// does, so a reader never sees half a line.
pub(crate) fn append(path: &Path, line: &str) -> Result<(), CaError> {
    let mut text = files::read_optional(path)?.unwrap_or_default();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    files::write_atomic(path, text.as_bytes(), files::PUBLIC_MODE)
}

/// Serials of the unexpired certificates the inventory lists for `CN=name`.
pub(crate) fn serials_for(
    path: &Path,
    certname: &str,
    now: OffsetDateTime,
) -> Result<Vec<u128>, CaError> {
    let text = files::read_optional(path)?.unwrap_or_default();
    let subject = format!("/CN={certname}");
    Ok(text
        .lines()
        .filter_map(|l| {
            let mut fields = l.split_whitespace();
            let serial = fields.next()?.strip_prefix("0x")?;
            let _not_before = fields.next()?;
            let not_after = parse_time(fields.next()?)?;
            let row_subject = fields.next()?;
            if row_subject != subject || not_after <= now {
                return None;
            }
            u128::from_str_radix(serial, 16).ok()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let at = |y, m, d| {
            time::Date::from_calendar_date(y, m, d)
                .expect("date")
                .with_hms(10, 0, 0)
                .expect("time")
                .assume_utc()
        };
        let nb = at(2026, time::Month::November, 24);
        let na = at(2031, time::Month::November, 23);
        let l = line(2, nb, na, "CN=agent1");
        assert_eq!(
            l,
            "0x0002 2026-11-24T10:00:00UTC 2031-11-23T10:00:00UTC /CN=agent1\n"
        );
        assert_eq!(parse_time("2031-11-23T10:00:00UTC"), Some(na));
    }
}
