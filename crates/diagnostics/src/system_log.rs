//! Log lines handed to the machine's log service: syslog (its datagram
//! socket, `/dev/log`) or systemd's journal (its native socket, which
//! keeps each line's fields). Both the commands' `--logdest` and the
//! server's logs use this, so a line reaches the service the same way from
//! either.
//!
//! The socket is written directly rather than through the C library's
//! `syslog(3)`, whose one connection per process cannot carry the server's
//! three streams under their own names, and which drops lines silently when
//! the service is missing: here a missing service is an error when the
//! destination is opened, and a service restarted later is reconnected to.

use std::io;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which service, and its protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// The BSD syslog protocol (RFC 3164), as `syslog(3)` writes it.
    Syslog,
    /// systemd's journal protocol: `FIELD=value` lines.
    Journald,
}

impl Service {
    /// Where the service listens unless told otherwise.
    pub fn default_socket(self) -> &'static Path {
        match self {
            Service::Syslog => Path::new("/dev/log"),
            Service::Journald => Path::new("/run/systemd/journal/socket"),
        }
    }

    /// `syslog` or `journald`, as destinations name it.
    pub fn name(self) -> &'static str {
        match self {
            Service::Syslog => "syslog",
            Service::Journald => "journald",
        }
    }
}

/// A destination named `syslog` or `journald`, optionally followed by
/// `:SOCKET` (an absolute path: a container's or a chroot's log socket
/// mounted elsewhere); `None` for any other name.
pub fn parse_destination(name: &str) -> Option<(Service, PathBuf)> {
    let (service, socket) = match name.split_once(':') {
        Some((service, socket)) => (service, Some(socket)),
        None => (name, None),
    };
    let service = match service {
        "syslog" => Service::Syslog,
        "journald" => Service::Journald,
        _ => return None,
    };
    match socket {
        None => Some((service, service.default_socket().to_path_buf())),
        Some(socket) if socket.starts_with('/') => Some((service, PathBuf::from(socket))),
        Some(_) => None,
    }
}

/// The facility a line is filed under (syslog's numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facility {
    /// Daemons' messages: Puppet's default `syslogfacility`.
    Daemon = 3,
    /// Security messages only administrators read (Debian's
    /// `/var/log/auth.log`).
    AuthPriv = 10,
}

/// How important a line is (syslog's numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Err = 3,
    Warning = 4,
    Notice = 5,
    Info = 6,
    Debug = 7,
}

/// A connection to the log service, named as its lines are tagged.
pub struct SystemLog {
    service: Service,
    socket_path: PathBuf,
    identifier: String,
    facility: Facility,
    socket: Mutex<UnixDatagram>,
}

impl SystemLog {
    /// Connects to the service's socket; an error when nothing listens
    /// there.
    pub fn open(
        service: Service,
        socket_path: &Path,
        identifier: &str,
        facility: Facility,
    ) -> io::Result<SystemLog> {
        Ok(SystemLog {
            service,
            socket_path: socket_path.to_path_buf(),
            identifier: identifier.to_string(),
            facility,
            socket: Mutex::new(connect(socket_path)?),
        })
    }

    /// `syslog (/dev/log)`: where lines go, for messages about it.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.service.name(), self.socket_path.display())
    }

    /// Sends one message. For syslog, each of its lines is a record of its
    /// own, as `syslog(3)` users send them; the journal keeps a message of
    /// several lines whole. When the service was restarted since the
    /// connection was made, it is connected to again and the record sent
    /// once more.
    pub fn send(&self, priority: Priority, message: &str) -> io::Result<()> {
        let records: Vec<Vec<u8>> = match self.service {
            Service::Syslog => message
                .lines()
                .filter(|line| !line.is_empty())
                .map(|line| self.syslog_record(priority, line))
                .collect(),
            Service::Journald => vec![self.journal_record(priority, message)],
        };
        let mut socket = self.socket.lock().unwrap_or_else(|e| e.into_inner());
        for record in records {
            if socket.send(&record).is_err() {
                *socket = connect(&self.socket_path)?;
                socket.send(&record)?;
            }
        }
        Ok(())
    }

    /// Connects again (on `SIGHUP`, with the log files reopened).
    pub fn reopen(&self) -> io::Result<()> {
        let fresh = connect(&self.socket_path)?;
        *self.socket.lock().unwrap_or_else(|e| e.into_inner()) = fresh;
        Ok(())
    }

    /// `<PRI>Mmm dd hh:mm:ss IDENT[PID]: LINE`, the form the C library
    /// sends to the local socket (local time, no host name).
    fn syslog_record(&self, priority: Priority, line: &str) -> Vec<u8> {
        let code = (self.facility as u8) * 8 + priority as u8;
        format!(
            "<{code}>{} {}[{}]: {}",
            local_timestamp(),
            self.identifier,
            std::process::id(),
            line.replace('\0', "\\0")
        )
        .into_bytes()
    }

    /// The journal's fields, one per line; a value holding a line break is
    /// given as its length (64-bit little endian) and bytes, as the
    /// protocol requires.
    fn journal_record(&self, priority: Priority, message: &str) -> Vec<u8> {
        let mut record = Vec::with_capacity(message.len() + 96);
        let mut field = |name: &str, value: &str| {
            record.extend_from_slice(name.as_bytes());
            if value.contains('\n') {
                record.push(b'\n');
                record.extend_from_slice(&(value.len() as u64).to_le_bytes());
            } else {
                record.push(b'=');
            }
            record.extend_from_slice(value.as_bytes());
            record.push(b'\n');
        };
        field("MESSAGE", message.trim_end_matches('\n'));
        field("PRIORITY", &(priority as u8).to_string());
        field("SYSLOG_FACILITY", &(self.facility as u8).to_string());
        field("SYSLOG_IDENTIFIER", &self.identifier);
        field("SYSLOG_PID", &std::process::id().to_string());
        record
    }
}

fn connect(path: &Path) -> io::Result<UnixDatagram> {
    let socket = UnixDatagram::unbound()?;
    socket.connect(path)?;
    Ok(socket)
}

/// `Nov 29 16:21:23`, in local time, as syslog records carry it.
fn local_timestamp() -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as libc::time_t;
    // SAFETY: localtime_r writes only the struct it is given, which is
    // plain data that a zeroed value initialises.
    let tm = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() {
            return "Jan  1 00:00:00".to_string();
        }
        tm
    };
    format!(
        "{} {:>2} {:02}:{:02}:{:02}",
        MONTHS[tm.tm_mon.clamp(0, 11) as usize],
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listener(dir: &Path) -> (UnixDatagram, PathBuf) {
        let path = dir.join("log.sock");
        (UnixDatagram::bind(&path).unwrap(), path)
    }

    fn received(socket: &UnixDatagram) -> Vec<u8> {
        let mut buffer = vec![0; 65536];
        let n = socket.recv(&mut buffer).unwrap();
        buffer.truncate(n);
        buffer
    }

    #[test]
    fn destinations_are_named_with_an_optional_socket() {
        assert_eq!(
            parse_destination("syslog"),
            Some((Service::Syslog, PathBuf::from("/dev/log")))
        );
        assert_eq!(
            parse_destination("journald:/run/x.sock"),
            Some((Service::Journald, PathBuf::from("/run/x.sock")))
        );
        assert_eq!(parse_destination("syslog:relative"), None);
        assert_eq!(parse_destination("/var/log/x.log"), None);
        assert_eq!(parse_destination("console"), None);
    }

    #[test]
    fn syslog_records_carry_priority_time_name_and_pid_a_line_each() {
        let dir = tempfile::tempdir().unwrap();
        let (server, path) = listener(dir.path());
        let log = SystemLog::open(Service::Syslog, &path, "mrtest", Facility::AuthPriv).unwrap();
        log.send(Priority::Notice, "first\nsecond\n").unwrap();
        let pid = std::process::id();
        for line in ["first", "second"] {
            let record = String::from_utf8(received(&server)).unwrap();
            // authpriv (10) * 8 + notice (5)
            assert!(record.starts_with("<85>"), "{record}");
            assert!(
                record.ends_with(&format!(" mrtest[{pid}]: {line}")),
                "{record}"
            );
            // `<85>Nov 29 16:21:23 mrtest...`: the time, 15 characters.
            assert_eq!(record.as_bytes()[4 + 15], b' ', "{record}");
        }
    }

    #[test]
    fn journal_records_keep_a_message_of_several_lines_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (server, path) = listener(dir.path());
        let log = SystemLog::open(Service::Journald, &path, "mrtest", Facility::Daemon).unwrap();
        log.send(Priority::Err, "one line").unwrap();
        let record = String::from_utf8(received(&server)).unwrap();
        assert!(
            record.starts_with("MESSAGE=one line\nPRIORITY=3\n"),
            "{record}"
        );
        assert!(
            record.contains("\nSYSLOG_FACILITY=3\nSYSLOG_IDENTIFIER=mrtest\n"),
            "{record}"
        );

        log.send(Priority::Info, "two\nlines").unwrap();
        let record = received(&server);
        let mut expected = b"MESSAGE\n".to_vec();
        expected.extend_from_slice(&9u64.to_le_bytes());
        expected.extend_from_slice(b"two\nlines\nPRIORITY=6\n");
        assert!(record.starts_with(&expected), "{record:?}");
    }

    #[test]
    fn a_missing_service_is_an_error_and_a_restarted_one_is_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.sock");
        let error = SystemLog::open(Service::Syslog, &missing, "mrtest", Facility::Daemon)
            .err()
            .expect("nothing listens");
        assert_eq!(error.kind(), io::ErrorKind::NotFound);

        let (server, path) = listener(dir.path());
        let log = SystemLog::open(Service::Syslog, &path, "mrtest", Facility::Daemon).unwrap();
        drop(server);
        std::fs::remove_file(&path).unwrap();
        let (server, _) = listener(dir.path());
        log.send(Priority::Info, "after the restart").unwrap();
        let record = String::from_utf8(received(&server)).unwrap();
        assert!(record.ends_with("after the restart"), "{record}");
    }
}
