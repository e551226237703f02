//! Reading a game record named by `loadsgf`: regular files only, bounded.
//!
//! The path comes from the controller, so it may name anything: `/dev/zero`
//! (endless), `/dev/stdin` (the command stream itself), a FIFO (an `open`
//! that waits forever for a writer), a directory, or a huge file. None of
//! these may hang the engine, swallow its input or fill its memory.

use std::fs::{File, OpenOptions};
use std::io::Read;

/// Largest record read, in bytes. A long professional game is about 5 KB
/// of SGF; even heavily commented records stay far below this.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// Why a record file could not be read (logged; the reply is always
/// `cannot load file`).
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    #[error("cannot open: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a regular file")]
    NotRegular,
    #[error("larger than {MAX_RECORD_BYTES} bytes")]
    TooLarge,
    #[error("not UTF-8 text")]
    NotText,
}

/// The whole text of the regular file at `path`, if it has at most
/// [`MAX_RECORD_BYTES`] bytes.
pub fn read_record(path: &str) -> Result<String, RecordFileError> {
    // Checked before opening, because opening a FIFO blocks...
    if !std::fs::metadata(path)?.is_file() {
        return Err(RecordFileError::NotRegular);
    }
    let file = open_nonblocking(path)?;
    // ...and again on what was opened, in case the path was swapped in
    // between (the non-blocking open keeps that case from hanging).
    if !file.metadata()?.is_file() {
        return Err(RecordFileError::NotRegular);
    }
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(RecordFileError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|_| RecordFileError::NotText)
}

#[cfg(unix)]
fn open_nonblocking(path: &str) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK makes opening a FIFO return at once; on a regular file it
    // changes nothing.
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &str) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

/// [`read_record`], logging why a file was refused.
pub fn read_record_logged(path: &str) -> Option<String> {
    match read_record(path) {
        Ok(text) => Some(text),
        Err(e) => {
            tracing::warn!("loadsgf {path:?}: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("warpstone-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn reads_a_small_regular_file() {
        let path = temp_path("small.sgf");
        std::fs::write(&path, "(;SZ[9])").unwrap();
        assert_eq!(read_record(path.to_str().unwrap()).unwrap(), "(;SZ[9])");
    }

    #[test]
    fn refuses_files_over_the_cap() {
        let path = temp_path("large.sgf");
        std::fs::write(&path, vec![b' '; MAX_RECORD_BYTES as usize + 1]).unwrap();
        assert!(matches!(
            read_record(path.to_str().unwrap()),
            Err(RecordFileError::TooLarge)
        ));
        std::fs::write(&path, vec![b' '; MAX_RECORD_BYTES as usize]).unwrap();
        assert!(read_record(path.to_str().unwrap()).is_ok());
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        for path in ["/dev/zero", "/dev/null", "/", "/dev/stdin"] {
            if std::path::Path::new(path).exists() {
                assert!(
                    matches!(read_record(path), Err(RecordFileError::NotRegular)),
                    "{path}"
                );
            }
        }
        assert!(matches!(
            read_record("/no/such/file.sgf"),
            Err(RecordFileError::Io(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let path = temp_path("fifo.sgf");
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !matches!(made, Ok(s) if s.success()) {
            return; // no mkfifo here: nothing to check
        }
        assert!(matches!(
            read_record(path.to_str().unwrap()),
            Err(RecordFileError::NotRegular)
        ));
        // The opening itself does not block either.
        assert!(open_nonblocking(path.to_str().unwrap()).is_ok());
        let _ = std::fs::remove_file(&path);
    }
}
