//! The `serial` file: the next serial number, in upper-case hexadecimal
//! padded to four digits, as Puppet writes it.

use std::path::Path;

use crate::error::CaError;
use crate::files;

/// Reads the next serial number.
pub(crate) fn read(path: &Path) -> Result<u128, CaError> {
    let text = files::read(path)?;
    u128::from_str_radix(text.trim(), 16).map_err(|e| CaError::CorruptFile {
        path: path.to_path_buf(),
        reason: format!("not a hexadecimal serial number: {e}"),
    })
}

/// Writes `next` as the next serial number.
pub(crate) fn write(path: &Path, next: u128) -> Result<(), CaError> {
    files::write_atomic(path, format(next).as_bytes(), files::PUBLIC_MODE)
}

/// Puppet's form: `%04X`.
pub(crate) fn format(serial: u128) -> String {
    format!("{serial:04X}")
}

/// Takes the next serial number and advances the file.
pub(crate) fn take(path: &Path) -> Result<u128, CaError> {
    let serial = read(path)?;
    write(path, serial + 1)?;
    Ok(serial)
}

/// The serial as the minimal big-endian bytes of a positive integer.
pub(crate) fn to_bytes(serial: u128) -> Vec<u8> {
    let bytes = serial.to_be_bytes();
    let skip = bytes.iter().take_while(|b| **b == 0).count().min(15);
    bytes[skip..].to_vec()
}

/// Big-endian bytes (any leading zeros) to a number; `None` when too long.
pub(crate) fn from_bytes(bytes: &[u8]) -> Option<u128> {
    let trimmed: &[u8] = {
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        &bytes[skip..]
    };
    if trimmed.len() > 16 {
        return None;
    }
    Some(
        trimmed
            .iter()
            .fold(0u128, |acc, b| (acc << 8) | u128::from(*b)),
    )
}
