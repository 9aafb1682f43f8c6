//! The trace's files: `trace.jsonl` and its rotated predecessors `trace.1.jsonl` …
//! `trace.{KEEP-1}.jsonl` in a private folder (`0700`, files `0600`), one JSON line per
//! dispatch.
//!
//! Several dispatches write at once (hosts run hooks in parallel, several sessions run side by
//! side). Each write holds an exclusive lock on the folder's `.lock` file for as long as it
//! checks the size, rotates when the line would not fit, and appends the line with one `write`
//! on an `O_APPEND` file: no line is torn, interleaved or lost to a rename, and the folder never
//! holds more than `KEEP` files of at most the size limit each. A write waits for the lock at
//! most [`LOCK_WAIT`], then drops its line.

use hookmux_handlers::safe_fs;
use hookmux_platform::fs::{self as platform_fs, Access, FileId};
use hookmux_platform::lock;
use hookmux_sdk::Env;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The size one trace file grows to before it is rotated.
pub const DEFAULT_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The smallest size `HOOKMUX_TRACE_MAX_BYTES` may set.
pub const MIN_FILE_BYTES: u64 = 4 * 1024;

/// The files kept: the current one and two rotated.
pub const KEEP: usize = 3;

/// The current file's name.
pub const CURRENT: &str = "trace.jsonl";

/// Where the trace is and how large it may grow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub dir: PathBuf,
    /// The size limit of one file.
    pub file_bytes: u64,
}

impl Store {
    /// `$HOOKMUX_TRACE_DIR`, else `trace/` in hookmux's state folder
    /// (`${XDG_STATE_HOME:-~/.local/state}/hookmux`); `None` without a home.
    /// `HOOKMUX_TRACE_MAX_BYTES` sets the size of one file.
    pub fn locate(env: &Env) -> Option<Store> {
        let dir = env
            .path("HOOKMUX_TRACE_DIR")
            .filter(|p| p.is_absolute())
            .or_else(|| hookmux_handlers::transcript::state_dir(env).map(|state| state.join("trace")))?;
        let file_bytes = env
            .get("HOOKMUX_TRACE_MAX_BYTES")
            .and_then(|text| text.trim().parse::<u64>().ok())
            .map_or(DEFAULT_FILE_BYTES, |bytes| bytes.max(MIN_FILE_BYTES));
        Some(Store { dir, file_bytes })
    }

    /// The most the folder holds, a line's worth of slack aside.
    pub fn bound(&self) -> u64 {
        self.file_bytes * KEEP as u64
    }

    /// The file of generation `n`: 0 is the current one.
    pub fn file(&self, n: usize) -> PathBuf {
        match n {
            0 => self.dir.join(CURRENT),
            n => self.dir.join(format!("trace.{n}.jsonl")),
        }
    }

    /// Makes the folder (private to the user) ready for writing and opens its lock file, which
    /// [`Store::append`] takes. An error names the folder and what to do.
    pub fn prepare(&self) -> io::Result<File> {
        safe_fs::private_dir(&self.dir)?;
        platform_fs::check_can_write_into(&self.dir)
            .map_err(|err| io::Error::new(err.kind(), format!("cannot write into {}: {err}", self.dir.display())))?;
        private_file(OpenOptions::new().read(true).write(true).create(true), &self.dir.join(".lock"))
    }

    /// Appends one line (`line` ends with a newline) under `lock` (from [`Store::prepare`]),
    /// rotating first when it would take the current file past the limit.
    pub fn append(&self, lock: &File, line: &[u8]) -> io::Result<()> {
        let _held = Flock::exclusive(lock)?;
        let mut file = private_file(OpenOptions::new().append(true).create(true), &self.file(0))?;
        let size = file.metadata()?.len();
        if size > 0 && size + line.len() as u64 > self.file_bytes {
            drop(file);
            self.rotate()?;
            file = private_file(OpenOptions::new().append(true).create(true), &self.file(0))?;
        }
        // One write: the lock keeps other writers of this trace out, and O_APPEND others still.
        let size = file.metadata()?.len();
        let written = file.write(line);
        if !matches!(written, Ok(n) if n == line.len()) {
            // A full disk: take the part written back off, so that the next line does not
            // start in the middle of this one.
            let _ = file.set_len(size);
            return Err(written
                .err()
                .unwrap_or_else(|| io::Error::new(io::ErrorKind::WriteZero, "the trace line was written in part")));
        }
        Ok(())
    }

    /// `trace.jsonl` → `trace.1.jsonl` → … the oldest is dropped. Under the lock.
    fn rotate(&self) -> io::Result<()> {
        match std::fs::remove_file(self.file(KEEP - 1)) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => return Err(err),
        }
        for n in (0..KEEP - 1).rev() {
            match std::fs::rename(self.file(n), self.file(n + 1)) {
                Ok(()) => {}
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    /// Every line of the trace, oldest first, with the lines that do not read left out.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for n in (0..KEEP).rev() {
            let Ok(file) = trace_file(OpenOptions::new().read(true), &self.file(n)) else { continue };
            // A line that is not UTF-8, or too long to be one of dispatch's, is left out; the
            // lines after it are read on.
            let mut reader = BufReader::new(file);
            let mut bytes = Vec::new();
            while matches!(reader.read_until(b'\n', &mut bytes), Ok(read) if read > 0) {
                if bytes.len() <= super::MAX_LINE + 1 {
                    if let Ok(line) = std::str::from_utf8(&bytes) {
                        if !line.trim().is_empty() {
                            lines.push(line.trim_end_matches('\n').to_string());
                        }
                    }
                }
                bytes.clear();
            }
        }
        lines
    }

    /// Follows the current file from its end: calls `each` with every line appended from now
    /// on, across rotations, until `each` returns false.
    pub fn follow(&self, poll: Duration, mut each: impl FnMut(&str) -> bool) -> io::Result<()> {
        let mut at = Position::open_at_end(&self.file(0));
        let mut pending = String::new();
        loop {
            let rotated = match (&at, FileId::of_path(&self.file(0)), std::fs::metadata(self.file(0))) {
                (Some(position), Ok(id), Ok(meta)) => id != position.id || meta.len() < position.offset,
                (None, Ok(_), Ok(_)) => true,
                _ => false,
            };
            if rotated {
                // Read what is left of the old file, then start the new one from its beginning.
                if let Some(position) = at.as_mut() {
                    position.read_new(&mut pending);
                }
                at = Position::open_at_start(&self.file(0));
            }
            if let Some(position) = at.as_mut() {
                position.read_new(&mut pending);
            }
            while let Some(end) = pending.find('\n') {
                let line: String = pending.drain(..=end).collect();
                if !line.trim().is_empty() && !each(line.trim_end()) {
                    return Ok(());
                }
            }
            std::thread::sleep(poll);
        }
    }
}

/// A file being followed.
struct Position {
    file: File,
    id: FileId,
    offset: u64,
}

impl Position {
    fn open_at_end(path: &Path) -> Option<Position> {
        let mut position = Position::open_at_start(path)?;
        position.offset = position.file.seek(SeekFrom::End(0)).ok()?;
        Some(position)
    }

    fn open_at_start(path: &Path) -> Option<Position> {
        let file = trace_file(OpenOptions::new().read(true), path).ok()?;
        let id = FileId::of(&file).ok()?;
        Some(Position { file, id, offset: 0 })
    }

    fn read_new(&mut self, into: &mut String) {
        let mut bytes = Vec::new();
        if self.file.seek(SeekFrom::Start(self.offset)).is_ok() {
            let _ = std::io::Read::read_to_end(&mut self.file, &mut bytes);
        }
        // Keep a line cut short by a write in progress for the next read.
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |end| end + 1);
        self.offset += complete as u64;
        into.push_str(&String::from_utf8_lossy(&bytes[..complete]));
    }
}

/// Opens a file of the trace folder: not through a link, created private to the user.
fn private_file(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    trace_file(platform_fs::create_with(options, Access::Private), path)
        .map_err(|err| io::Error::new(err.kind(), format!("cannot write {}: {err}", path.display())))
}

/// Opens a trace file, refusing what is not one: a symbolic link (`O_NOFOLLOW`), a FIFO or a
/// device (opened without blocking, then refused, so that nothing planted in the folder can hold
/// a dispatch up), a file with other names (a hard link would have the line written into the
/// file it names), or someone else's file.
fn trace_file(options: &OpenOptions, path: &Path) -> io::Result<File> {
    let file = platform_fs::open_no_follow_nonblocking(options, path).map_err(|err| {
        if platform_fs::is_link_refusal(&err) {
            io::Error::new(err.kind(), format!("{} is a symbolic link; remove it", path.display()))
        } else {
            err
        }
    })?;
    if !platform_fs::is_own_single_file(&file)? {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a trace file of this user's (a FIFO, a device, a hard link or another user's file); remove it", path.display()),
        ));
    }
    Ok(file)
}

/// The longest a write waits for the lock: the lock is held for microseconds, and a holder that
/// is stopped (a dispatch suspended at a terminal) must not hold every later dispatch up.
pub const LOCK_WAIT: Duration = Duration::from_millis(50);

/// An exclusive lock, released when dropped (and by the system when the process ends).
struct Flock<'f>(&'f File);

impl<'f> Flock<'f> {
    /// Waits at most [`LOCK_WAIT`]; then the line is not written.
    fn exclusive(file: &'f File) -> io::Result<Flock<'f>> {
        let deadline = Instant::now() + LOCK_WAIT;
        while !lock::try_exclusive(file)? {
            if Instant::now() >= deadline {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "the trace stayed locked; the line was dropped"));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(Flock(file))
    }
}

impl Drop for Flock<'_> {
    fn drop(&mut self) {
        let _ = lock::unlock(self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path, file_bytes: u64) -> Store {
        Store { dir: dir.join("trace"), file_bytes }
    }

    #[test]
    fn rotation_keeps_the_folder_within_its_bound_and_loses_no_recent_line() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path(), 4096);
        let lock = store.prepare().unwrap();
        let line = |n: usize| format!("{{\"n\":{n},\"pad\":\"{}\"}}\n", "x".repeat(100));
        for n in 0..1000 {
            store.append(&lock, line(n).as_bytes()).unwrap();
        }
        let total: u64 = (0..KEEP + 2).filter_map(|n| std::fs::metadata(store.file(n)).ok()).map(|m| m.len()).sum();
        assert!(total <= store.bound(), "{total} bytes in the folder, bound {}", store.bound());
        assert!(!store.file(KEEP).exists(), "no file past the kept ones");
        for n in 0..KEEP {
            assert!(std::fs::metadata(store.file(n)).unwrap().len() <= store.file_bytes);
        }
        // The newest lines are all there, in order, and whole.
        let lines = store.lines();
        let numbers: Vec<u64> = lines
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["n"].as_u64().unwrap())
            .collect();
        assert_eq!(*numbers.last().unwrap(), 999);
        assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "no line lost between the kept ones");
        assert_eq!(platform_fs::why_not_private_dir(&store.dir).unwrap(), None);
    }

    #[test]
    fn a_held_lock_delays_a_write_a_bounded_time_then_drops_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path(), 4096);
        let lock = store.prepare().unwrap();
        store.append(&lock, b"{\"n\":1}\n").unwrap();
        // Another dispatch's: flock locks belong to an open file description.
        let other = store.prepare().unwrap();
        let held = Flock::exclusive(&other).unwrap();
        let err = store.append(&lock, b"{\"n\":2}\n").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        drop(held);
        store.append(&lock, b"{\"n\":3}\n").unwrap();
        assert_eq!(store.lines(), ["{\"n\":1}", "{\"n\":3}"]);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_link_in_place_of_the_trace_file_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path(), 4096);
        let lock = store.prepare().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        platform_fs::symlink_file(&victim, &store.file(0)).unwrap();
        assert!(store.append(&lock, b"{}\n").is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    }

    #[test]
    #[cfg_attr(not(unix), ignore = "HOME and XDG_STATE_HOME place the user's folders on Unix")]
    fn the_folder_is_found_from_the_environment() {
        let env: Env = [("HOME", "/h")].into_iter().collect();
        assert_eq!(Store::locate(&env).unwrap().dir, PathBuf::from("/h/.local/state/hookmux/trace"));
        let env: Env =
            [("HOME", "/h"), ("XDG_STATE_HOME", "/x"), ("HOOKMUX_TRACE_MAX_BYTES", "10")].into_iter().collect();
        let store = Store::locate(&env).unwrap();
        assert_eq!((store.dir, store.file_bytes), (PathBuf::from("/x/hookmux/trace"), MIN_FILE_BYTES));
        let env: Env = [("HOME", "/h"), ("HOOKMUX_TRACE_DIR", "/t")].into_iter().collect();
        assert_eq!(Store::locate(&env).unwrap().dir, PathBuf::from("/t"));
        assert_eq!(Store::locate(&Env::empty()), None);
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::os::unix::fs::PermissionsExt;

        #[test]
        fn the_folder_is_0700_and_its_files_0600() {
            let dir = tempfile::tempdir().unwrap();
            let store = store(dir.path(), 4096);
            let lock = store.prepare().unwrap();
            store.append(&lock, b"{}\n").unwrap();
            let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
            assert_eq!((mode(&store.dir), mode(&store.file(0)), mode(&store.dir.join(".lock"))), (0o700, 0o600, 0o600));
        }
    }
}
