//! Reading a host's transcript files within bounds, and listing its folders without following
//! links.
//!
//! A file is opened without following a link at its name and without waiting (the platform
//! layer's `open_no_follow_nonblocking`), and read only when it is a regular file: a
//! symbolic link, a FIFO or a device put in a host's folder (the model can make them with the
//! tools it runs) is neither followed nor waited on. Folders are listed by what the entries are,
//! not what they point to.

use serde_json::Value;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The most of one file read.
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// The longest line read; a longer one (a pasted image, a huge tool output) is skipped.
pub const MAX_LINE_BYTES: usize = 32 * 1024 * 1024;

/// The most entries of a folder looked at, and the most transcript files one reader looks at
/// when it searches its folder.
pub const MAX_FILES: usize = 20_000;

/// The most lines read of one file.
pub const MAX_LINES: usize = 4_000_000;

/// What reading a file came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines read.
    pub lines: usize,
    /// Lines left out: not UTF-8 JSON, or too long.
    pub skipped: usize,
    /// A bound was reached before the end of the file.
    pub truncated: bool,
}

/// Opens `path` for reading when it is a regular file, and not through a symbolic link.
pub fn open(path: &Path) -> io::Result<File> {
    let file = hookmux_platform::fs::open_no_follow_nonblocking(OpenOptions::new().read(true), path)?;
    if !file.metadata()?.file_type().is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a regular file", path.display())));
    }
    Ok(file)
}

/// Calls `each` with every line of `path` that is JSON, in order; the others are counted.
pub fn json_lines(path: &Path, mut each: impl FnMut(Value)) -> io::Result<Stats> {
    let file = open(path)?;
    let mut reader = BufReader::with_capacity(256 * 1024, file.take(MAX_FILE_BYTES));
    let mut stats = Stats::default();
    let mut line = Vec::new();
    loop {
        if stats.lines >= MAX_LINES {
            stats.truncated = !reader.fill_buf()?.is_empty();
            return Ok(stats);
        }
        let (read, whole) = next_line(&mut reader, &mut line)?;
        if read == 0 {
            // The whole file, unless its bound cut it short.
            stats.truncated = reader.into_inner().into_inner().metadata()?.len() > MAX_FILE_BYTES;
            return Ok(stats);
        }
        stats.lines += 1;
        if !whole {
            stats.skipped += 1;
            continue;
        }
        let text = trim(&line);
        if text.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Value>(text) {
            Ok(value) => each(value),
            Err(_) => stats.skipped += 1,
        }
    }
}

/// The next line into `line` (without its newline): the bytes it took, and whether it was kept
/// whole (a line past [`MAX_LINE_BYTES`] is read through but not kept).
fn next_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    line.clear();
    let mut read = 0;
    let mut whole = true;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok((read, whole));
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], Some(at + 1)),
            None => (buffer, None),
        };
        if whole && line.len() + chunk.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(chunk);
        } else {
            whole = false;
            line.clear();
        }
        let used = done.unwrap_or(buffer.len());
        read += used;
        reader.consume(used);
        if done.is_some() {
            return Ok((read, whole));
        }
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |at| at + 1);
    let start = line[..end].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    &line[start..end]
}

/// The first line of `path` as JSON, read up to `max` bytes.
pub fn first_line(path: &Path, max: usize) -> Option<Value> {
    let mut reader = BufReader::new(open(path).ok()?.take(max as u64));
    let mut line = Vec::new();
    reader.read_until(b'\n', &mut line).ok()?;
    serde_json::from_slice(trim(&line)).ok()
}

/// The first `max` bytes of `path`.
pub fn head(path: &Path, max: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.take(max as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// An entry of a folder.
#[derive(Clone, Debug)]
pub struct Entry {
    pub path: PathBuf,
    pub name: String,
    pub is_dir: bool,
    pub modified: SystemTime,
}

/// The real folders and regular files in `dir` (symbolic links and anything else left out, as
/// are names that are not UTF-8), at most [`MAX_FILES`].
pub fn entries(dir: &Path) -> Vec<Entry> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    read.filter_map(Result::ok)
        .take(MAX_FILES)
        .filter_map(|entry| {
            let kind = entry.file_type().ok()?;
            if !(kind.is_dir() || kind.is_file()) {
                return None;
            }
            let meta = entry.metadata().ok()?;
            Some(Entry {
                name: entry.file_name().into_string().ok()?,
                path: entry.path(),
                is_dir: kind.is_dir(),
                modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            })
        })
        .collect()
}

/// Whether `dir` is a real folder (not a symbolic link to one).
pub fn is_real_dir(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir).is_ok_and(|meta| meta.is_dir())
}

/// Whether `dir` is a folder, reached through a symbolic link or not: a host's own folder
/// (`~/.claude`) may be a link in a user's dotfiles setup, the folders below it may not.
pub fn is_dir(dir: &Path) -> bool {
    dir.is_dir()
}

/// Calls `each` with every item of the array `key` of the JSON object that `path` holds, one item
/// at a time (a host that keeps a whole session as one JSON document: Cline). An item is counted
/// in `lines`; the file past [`MAX_FILE_BYTES`] is not read (truncated), and a document that
/// stops being JSON part way keeps the items before it, the rest counted as one skip.
pub fn json_array_items(path: &Path, key: &str, mut each: impl FnMut(Value)) -> io::Result<Stats> {
    let file = open(path)?;
    if file.metadata()?.len() > MAX_FILE_BYTES {
        return Ok(Stats { lines: 0, skipped: 1, truncated: true });
    }
    let mut stats = Stats::default();
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(256 * 1024, file));
    let read =
        serde::de::Deserializer::deserialize_map(&mut de, array::Object { key, each: &mut each, stats: &mut stats });
    if read.is_err() {
        stats.skipped += 1;
    }
    Ok(stats)
}

/// The serde visitors of [`json_array_items`]: the object's other fields are passed over
/// without being kept, the array's items handed on one by one.
mod array {
    use crate::host::history::lines::{Stats, MAX_LINES};
    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;
    use std::fmt;

    pub(super) struct Object<'a, F> {
        pub key: &'a str,
        pub each: &'a mut F,
        pub stats: &'a mut Stats,
    }

    impl<'de, F: FnMut(Value)> Visitor<'de> for Object<'_, F> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(name) = map.next_key::<String>()? {
                if name == self.key {
                    map.next_value_seed(Items { each: &mut *self.each, stats: &mut *self.stats })?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }

    struct Items<'a, F> {
        each: &'a mut F,
        stats: &'a mut Stats,
    }

    impl<'de, F: FnMut(Value)> DeserializeSeed<'de> for Items<'_, F> {
        type Value = ();

        fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
            de.deserialize_any(self)
        }
    }

    impl<'de, F: FnMut(Value)> Visitor<'de> for Items<'_, F> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON array")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(item) = seq.next_element::<Value>()? {
                if self.stats.lines >= MAX_LINES {
                    self.stats.truncated = true;
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    return Ok(());
                }
                self.stats.lines += 1;
                (self.each)(item);
            }
            Ok(())
        }

        /// Not an array: nothing to read, one skip.
        fn visit_unit<E>(self) -> Result<(), E> {
            self.stats.skipped += 1;
            Ok(())
        }
    }
}
