//! Dates as game records write them, understood.
//!
//! Records keep their date as written (`2004`, `2020.05.05`,
//! `2003.12.15_12:33:18.MST`, `947375357`, `2022-01-17 12:52:30 GMT`,
//! `2004.??.??`); a [`RecordDate`] reads those forms into parts, as far as
//! they go, so that the table can give every date in ISO 8601 and each
//! writer in its own format's form.

use std::fmt;

/// The parts of a date, as far as the record gives them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RecordDate {
    /// The year.
    pub year: u16,
    /// The month, 1–12.
    pub month: Option<u8>,
    /// The day, 1–31 (only with a month).
    pub day: Option<u8>,
    /// Hours, minutes, seconds (only with a day).
    pub time: Option<(u8, u8, u8)>,
    /// The time zone's offset from UTC in minutes, when the record names
    /// one (only with a time).
    pub offset: Option<i16>,
}

/// Offsets of the zone names GGS and other servers write.
const ZONES: [(&str, i16); 14] = [
    ("UTC", 0),
    ("GMT", 0),
    ("Z", 0),
    ("WET", 0),
    ("CET", 60),
    ("CEST", 120),
    ("EET", 120),
    ("JST", 540),
    ("EST", -300),
    ("EDT", -240),
    ("CST", -360),
    ("MST", -420),
    ("MDT", -360),
    ("PST", -480),
];

impl RecordDate {
    /// A year alone.
    #[must_use]
    pub const fn year(year: u16) -> RecordDate {
        RecordDate {
            year,
            month: None,
            day: None,
            time: None,
            offset: None,
        }
    }

    /// Reads a date in any of the forms records use: `YYYY`, `YYYY-MM-DD`
    /// or with `.` or `/` (unknown parts as `??` end it), a time after
    /// `T`, `_` or a space (`HH:MM[:SS]`), then a zone (`Z`, `UTC`, `GMT`,
    /// `MST`, `+01:00`, `.MST`); Unix seconds (GGF's other form); and
    /// `DD.MM.YYYY`. `None` for anything else.
    #[must_use]
    pub fn parse(text: &str) -> Option<RecordDate> {
        let text = text.trim();
        if text.len() >= 9 && text.bytes().all(|b| b.is_ascii_digit()) {
            return text.parse::<i64>().ok().and_then(RecordDate::from_unix);
        }
        let bytes = text.as_bytes();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        // `DD.MM.YYYY`
        if bytes.len() == 10 && bytes[2] == b'.' && bytes[5] == b'.' {
            let (d, m, y) = (&text[..2], &text[3..5], &text[6..]);
            if digits(d) && digits(m) && digits(y) {
                return RecordDate::checked(y.parse().ok()?, m.parse().ok(), d.parse().ok());
            }
        }
        let year_end = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if year_end != 4 {
            return None;
        }
        let year: u16 = text[..4].parse().ok()?;
        let mut rest = &text[4..];
        let mut date = RecordDate::year(year);
        let unknown = |s: &str| s.starts_with("??") || s.starts_with("XX");
        // Month and day.
        for slot in 0..2 {
            let Some(sep) = rest.chars().next().filter(|c| matches!(c, '-' | '.' | '/')) else {
                break;
            };
            let after = &rest[sep.len_utf8()..];
            if unknown(after) {
                rest = "";
                break;
            }
            let n = after.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 || n > 2 {
                return None;
            }
            let value: u8 = after[..n].parse().ok()?;
            if slot == 0 {
                date.month = Some(value);
            } else {
                date.day = Some(value);
            }
            rest = &after[n..];
        }
        let date = RecordDate::checked(date.year, date.month, date.day)?;
        let rest = rest.trim_start_matches(['T', '_', ' ']);
        if rest.is_empty() {
            return Some(date);
        }
        date.day?;
        let (time, zone) = RecordDate::time(rest)?;
        Some(RecordDate {
            time: Some(time),
            offset: zone,
            ..date
        })
    }

    /// A date whose parts are in range.
    fn checked(year: u16, month: Option<u8>, day: Option<u8>) -> Option<RecordDate> {
        if month.is_some_and(|m| !(1..=12).contains(&m))
            || day.is_some_and(|d| !(1..=31).contains(&d))
            || (day.is_some() && month.is_none())
        {
            return None;
        }
        Some(RecordDate {
            month,
            day,
            ..RecordDate::year(year)
        })
    }

    /// `HH:MM[:SS]` and a zone: `Z`, a name, `+HH:MM`, with or without a
    /// separator before it.
    fn time(text: &str) -> Option<((u8, u8, u8), Option<i16>)> {
        let mut parts = [0u8; 3];
        let mut rest = text;
        for (i, part) in parts.iter_mut().enumerate() {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 || n > 2 {
                if i == 2 {
                    break;
                }
                return None;
            }
            *part = rest[..n].parse().ok()?;
            rest = &rest[n..];
            if i < 2 {
                match rest.strip_prefix(':') {
                    Some(after) => rest = after,
                    None if i == 1 => break,
                    None => return None,
                }
            }
        }
        let [h, m, s] = parts;
        if h > 23 || m > 59 || s > 60 {
            return None;
        }
        let zone = rest.trim_start_matches(['.', ' ']);
        let offset = if zone.is_empty() {
            None
        } else if let Some(&(_, off)) = ZONES
            .iter()
            .find(|(name, _)| zone.eq_ignore_ascii_case(name))
        {
            Some(off)
        } else {
            let sign = match zone.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let hm = zone[1..].replace(':', "");
            if hm.len() != 4 || !hm.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let hours: i16 = hm[..2].parse().ok()?;
            let minutes: i16 = hm[2..].parse().ok()?;
            Some(sign * (hours * 60 + minutes))
        };
        Some(((h, m, s), offset))
    }

    /// The UTC date of Unix seconds (years 1970–9999).
    #[must_use]
    pub fn from_unix(seconds: i64) -> Option<RecordDate> {
        if !(0..253_402_300_800).contains(&seconds) {
            return None;
        }
        let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
        let secs = seconds.rem_euclid(86_400);
        Some(RecordDate {
            year,
            month: Some(month),
            day: Some(day),
            time: Some((
                (secs / 3600) as u8,
                (secs / 60 % 60) as u8,
                (secs % 60) as u8,
            )),
            offset: Some(0),
        })
    }

    /// The same moment in UTC, when the zone is known.
    #[must_use]
    pub fn to_utc(&self) -> RecordDate {
        let (Some(month), Some(day), Some((h, m, s)), Some(offset)) =
            (self.month, self.day, self.time, self.offset)
        else {
            return *self;
        };
        let days = days_from_civil(self.year, month, day);
        let minutes = days * 1440 + i64::from(h) * 60 + i64::from(m) - i64::from(offset);
        let seconds = minutes * 60 + i64::from(s);
        RecordDate::from_unix(seconds).unwrap_or(*self)
    }
}

impl fmt::Display for RecordDate {
    /// ISO 8601, as far as the date goes: `2004`, `2004-05`, `2004-05-12`,
    /// `2004-05-12T12:33:18` (no zone known), `2003-12-15T19:33:18Z`
    /// (turned to UTC).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.to_utc();
        write!(f, "{:04}", d.year)?;
        if let Some(month) = d.month {
            write!(f, "-{month:02}")?;
            if let Some(day) = d.day {
                write!(f, "-{day:02}")?;
                if let Some((h, m, s)) = d.time {
                    write!(f, "T{h:02}:{m:02}:{s:02}")?;
                    if d.offset.is_some() {
                        f.write_str("Z")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The date in ISO 8601 ([`RecordDate`]'s `Display`) of a date as a
/// record writes it, or `None` when it is in no known form.
#[must_use]
pub fn iso_date(text: &str) -> Option<String> {
    RecordDate::parse(text).map(|d| d.to_string())
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
fn days_from_civil(year: u16, month: u8, day: u8) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count from 1970-01-01.
#[must_use]
pub fn civil_from_days(days: i64) -> (u16, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as u16, month as u8, day as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_to_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }

    #[test]
    fn every_form_records_use_reads_to_iso() {
        let cases = [
            ("2004", Some("2004")),
            ("2004-05-12", Some("2004-05-12")),
            ("2020.05.05", Some("2020-05-05")),
            ("2004/5/7", Some("2004-05-07")),
            ("2004.??.??", Some("2004")),
            ("2004.05.??", Some("2004-05")),
            ("2003.12.15_12:33:18.MST", Some("2003-12-15T19:33:18Z")),
            ("2022-01-17 12:52:30 GMT", Some("2022-01-17T12:52:30Z")),
            ("2022-01-17T23:30:00+01:00", Some("2022-01-17T22:30:00Z")),
            ("2022-01-17 08:05", Some("2022-01-17T08:05:00")),
            ("947375357", Some("2000-01-08T23:49:17Z")),
            ("15.12.2003", Some("2003-12-15")),
            ("????.??.??", None),
            ("2004-13-01", None),
            ("yesterday", None),
            ("", None),
        ];
        for (text, iso) in cases {
            assert_eq!(iso_date(text).as_deref(), iso, "{text}");
        }
    }

    #[test]
    fn days_and_dates_agree() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
        for days in (-1000..40_000).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn a_time_across_midnight_moves_the_day() {
        let d = RecordDate::parse("2003.12.31_20:00:00.MST").unwrap();
        assert_eq!(d.to_string(), "2004-01-01T03:00:00Z");
    }
}
