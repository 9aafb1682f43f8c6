//! Files and folders on Windows: owners and access lists (`security`), reparse points for links,
//! and file ids from `GetFileInformationByHandle`.
//!
//! Access for new files: Windows has no creation mode, and `std` passes no security descriptor
//! when it opens a file, so a new file takes the inheritable entries of its folder's access
//! list. A folder made by [`create_private_dirs`] passes on only the user's (and the OS's and
//! the administrators'), and the folders under the user's profile (`%LOCALAPPDATA%`, where
//! hookmux keeps its state) are the user's already; [`make_file_private`] makes one file private
//! wherever it is. [`Access::Shared`] and [`Access::Usual`] are what a file gets anyway.
//!
//! Links: a symbolic link, a junction, or any reparse point whose tag is a name surrogate (what
//! `std`'s `is_symlink` means on Windows). Opening without following is
//! `FILE_FLAG_OPEN_REPARSE_POINT`, then a look at what was opened: a link is refused with
//! `ERROR_CANT_RESOLVE_FILENAME` (which libuv, and so [`crate::errno`], names `ELOOP`).
//!
//! Opening never waits on another process here: a name in a folder is a file, a folder or a
//! link, never a FIFO, so the non-blocking open is the plain one.

use super::security;
use crate::fs::{Access, NotPrivate};
use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io;
use std::os::windows::fs::{FileExt, OpenOptionsExt};
use std::os::windows::io::{AsRawHandle, FromRawHandle};
use std::path::Path;
use windows_sys::Win32::Foundation::{self as w, HANDLE};
use windows_sys::Win32::Storage::FileSystem as f;

/// Opens folders as well as files (a folder needs it), as `open` does on Unix.
const FOLDERS_TOO: u32 = f::FILE_FLAG_BACKUP_SEMANTICS;

pub fn create_with(options: &mut OpenOptions, _access: Access) -> &mut OpenOptions {
    options
}

pub fn permissions(_access: Access) -> Option<Permissions> {
    None
}

/// Each missing folder, from the top down, is made with the private access list.
pub fn create_private_dirs(dir: &Path) -> io::Result<()> {
    let missing: Vec<&Path> = dir.ancestors().take_while(|folder| fs::symlink_metadata(folder).is_err()).collect();
    for folder in missing.into_iter().rev() {
        if folder.as_os_str().is_empty() {
            continue;
        }
        match security::create_private_dir(folder) {
            Ok(()) => {}
            // Made by someone else meanwhile: as on Unix, it is left as it is.
            Err(err) if err.raw_os_error() == Some(w::ERROR_ALREADY_EXISTS as i32) && folder.is_dir() => {}
            Err(err) => return Err(err),
        }
    }
    if dir.is_dir() {
        Ok(())
    } else if fs::symlink_metadata(dir).is_ok() {
        // A file (or a link) in the place: it exists, as Unix's recursive `mkdir` says, and the
        // caller tells a folder from the rest ([`crate::fs::why_not_private_dir`]).
        Err(io::Error::from_raw_os_error(w::ERROR_ALREADY_EXISTS as i32))
    } else {
        Err(io::Error::from_raw_os_error(w::ERROR_DIRECTORY as i32))
    }
}

pub fn make_dir_private(dir: &Path) -> io::Result<()> {
    security::make_private_by_path(dir, true)
}

/// The access list is changed through a second handle that asks for `WRITE_DAC`, which the owner
/// of a file is always granted.
pub fn make_file_private(file: &File) -> io::Result<()> {
    let share = f::FILE_SHARE_READ | f::FILE_SHARE_WRITE | f::FILE_SHARE_DELETE;
    // SAFETY: reopens an open handle; the new one is owned and closed below.
    let raw = unsafe { f::ReOpenFile(file.as_raw_handle() as HANDLE, f::WRITE_DAC | f::READ_CONTROL, share, 0) };
    if raw == w::INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a valid handle we own from here.
    let reopened = unsafe { File::from_raw_handle(raw as _) };
    security::make_private_by_handle(reopened.as_raw_handle())
}

pub fn open_no_follow(options: &OpenOptions, path: &Path) -> io::Result<File> {
    // A link already there is refused before it is opened at all: opening a link itself for
    // writing, even without following it, could truncate the link.
    if fs::symlink_metadata(path).is_ok_and(|meta| is_link(&meta)) {
        return Err(link_refusal());
    }
    let file = options.clone().custom_flags(f::FILE_FLAG_OPEN_REPARSE_POINT | FOLDERS_TOO).open(path)?;
    // Made a link between the look and the open: what was opened is the link, not its target.
    if opened_a_link(&file)? {
        return Err(link_refusal());
    }
    Ok(file)
}

pub fn open_no_follow_nonblocking(options: &OpenOptions, path: &Path) -> io::Result<File> {
    open_no_follow(options, path)
}

fn link_refusal() -> io::Error {
    io::Error::from_raw_os_error(w::ERROR_CANT_RESOLVE_FILENAME as i32)
}

pub fn is_link_refusal(err: &io::Error) -> bool {
    err.raw_os_error() == Some(w::ERROR_CANT_RESOLVE_FILENAME as i32)
}

pub fn is_link(meta: &Metadata) -> bool {
    meta.file_type().is_symlink()
}

/// A name-surrogate reparse point, as `IsReparseTagNameSurrogate` tells.
fn opened_a_link(file: &File) -> io::Result<bool> {
    let mut info = f::FILE_ATTRIBUTE_TAG_INFO { FileAttributes: 0, ReparseTag: 0 };
    // SAFETY: an open handle and a buffer of the class's size.
    let read = unsafe {
        f::GetFileInformationByHandleEx(
            file.as_raw_handle() as HANDLE,
            f::FileAttributeTagInfo,
            (&mut info as *mut f::FILE_ATTRIBUTE_TAG_INFO).cast(),
            size_of::<f::FILE_ATTRIBUTE_TAG_INFO>() as u32,
        )
    };
    if read == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(info.FileAttributes & f::FILE_ATTRIBUTE_REPARSE_POINT != 0 && info.ReparseTag & 0x2000_0000 != 0)
}

fn file_information(file: &File) -> io::Result<f::BY_HANDLE_FILE_INFORMATION> {
    // SAFETY: all-zero is a valid value of this plain structure.
    let mut info: f::BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: an open handle and a structure to fill.
    if unsafe { f::GetFileInformationByHandle(file.as_raw_handle() as HANDLE, &mut info) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(info)
}

pub fn is_own_single_file(file: &File) -> io::Result<bool> {
    let info = file_information(file)?;
    let not_a_file = f::FILE_ATTRIBUTE_DIRECTORY | f::FILE_ATTRIBUTE_REPARSE_POINT;
    if info.dwFileAttributes & not_a_file != 0 || info.nNumberOfLinks != 1 {
        return Ok(false);
    }
    let (owner, token) = (security::descriptor(file.as_raw_handle())?.owner(), security::token()?);
    Ok(owner.is_some_and(|owner| security::is_own(&owner, token)))
}

pub fn why_not_private_dir(dir: &Path) -> io::Result<Option<NotPrivate>> {
    // One handle for every look, opened on the name itself (a link is not followed).
    let folder = OpenOptions::new()
        .access_mode(f::READ_CONTROL | f::FILE_READ_ATTRIBUTES)
        .custom_flags(f::FILE_FLAG_OPEN_REPARSE_POINT | FOLDERS_TOO)
        .open(dir)?;
    if opened_a_link(&folder)? {
        return Ok(Some(NotPrivate::Link));
    }
    if file_information(&folder)?.dwFileAttributes & f::FILE_ATTRIBUTE_DIRECTORY == 0 {
        return Ok(Some(NotPrivate::NotAFolder));
    }
    let token = security::token()?;
    let descriptor = security::descriptor(folder.as_raw_handle())?;
    match descriptor.owner() {
        Some(owner) if security::is_own(&owner, token) => {}
        owner => {
            let owner = owner.map_or_else(|| "no one".to_string(), |owner| owner.name());
            return Ok(Some(NotPrivate::Owner { owner, me: token.user.name() }));
        }
    }
    let others = descriptor.other_writers(token);
    if others.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = others.iter().map(security::Sid::name).collect();
    let removals: Vec<String> = others.iter().map(|sid| format!("/remove:g *{}", sid.text())).collect();
    Ok(Some(NotPrivate::OpenToOthers {
        how: format!("its access list lets {} write", names.join(", ")),
        // Inherited entries cannot be removed: `/inheritance:d` makes them the folder's own first.
        fix: Some(format!("icacls \"{}\" /inheritance:d {}", dir.display(), removals.join(" "))),
    }))
}

pub fn mode(_meta: &Metadata) -> Option<u32> {
    None
}

pub fn set_mode(_path: &Path, _mode: u32) -> io::Result<bool> {
    Ok(false)
}

pub fn make_runnable(_path: &Path) -> io::Result<()> {
    Ok(())
}

pub fn open_to_others(_meta: &Metadata) -> bool {
    false
}

pub fn lacks_execute_permission(_meta: &Metadata) -> bool {
    false
}

/// Whether the OS lets this user create a file in `dir`, asked the one way that counts every
/// access list, mount and policy: by creating one (deleted when closed).
pub fn check_can_write_into(dir: &Path) -> io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static TRIES: AtomicU64 = AtomicU64::new(0);
    loop {
        let name = format!(".hookmux-write-check-{}-{}", std::process::id(), TRIES.fetch_add(1, Ordering::Relaxed));
        let created = OpenOptions::new()
            .write(true)
            .create_new(true)
            .access_mode(w::GENERIC_WRITE | f::DELETE)
            .custom_flags(f::FILE_FLAG_DELETE_ON_CLOSE)
            .attributes(f::FILE_ATTRIBUTE_HIDDEN | f::FILE_ATTRIBUTE_TEMPORARY)
            .open(dir.join(name));
        match created {
            Ok(_) => return Ok(()),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        }
    }
}

/// The volume's serial number and the file's index on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    volume: u32,
    index: u64,
}

pub fn file_id_of_path(path: &Path) -> io::Result<FileId> {
    let file = OpenOptions::new().access_mode(f::FILE_READ_ATTRIBUTES).custom_flags(FOLDERS_TOO).open(path)?;
    file_id_of(&file)
}

pub fn file_id_of(file: &File) -> io::Result<FileId> {
    let info = file_information(file)?;
    Ok(FileId {
        volume: info.dwVolumeSerialNumber,
        index: (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow),
    })
}

pub fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "failed to fill whole buffer")),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            // Reading at or past the end is ERROR_HANDLE_EOF on Windows.
            Err(err) if err.raw_os_error() == Some(w::ERROR_HANDLE_EOF as i32) => {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "failed to fill whole buffer"))
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// A folder is refused at the open with `ERROR_ACCESS_DENIED`; Node opens it and fails at the
/// read with `ERROR_INVALID_FUNCTION`, which libuv names `EISDIR`: that is the error given.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(path).map_err(|err| match err.raw_os_error() {
        Some(code) if code == w::ERROR_ACCESS_DENIED as i32 && fs::metadata(path).is_ok_and(|meta| meta.is_dir()) => {
            io::Error::from_raw_os_error(w::ERROR_INVALID_FUNCTION as i32)
        }
        _ => err,
    })
}

pub fn set_modified(path: &Path, at: std::time::SystemTime) -> io::Result<()> {
    OpenOptions::new().access_mode(f::FILE_WRITE_ATTRIBUTES).custom_flags(FOLDERS_TOO).open(path)?.set_modified(at)
}

pub fn symlink_file(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_file(target, link)?;
    check_made(link)
}

pub fn symlink_dir(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)?;
    check_made(link)
}

/// Some systems that run Win32 programs report a link made where none is (Wine 8's
/// `CreateSymbolicLinkW` is a stub that succeeds): a link that is not there is an error.
fn check_made(link: &Path) -> io::Result<()> {
    match fs::symlink_metadata(link) {
        Ok(meta) if is_link(&meta) => Ok(()),
        _ => Err(io::Error::new(io::ErrorKind::Unsupported, "the system reported a symbolic link made, but made none")),
    }
}

/// NTFS folders fold case unless one was made case-sensitive for WSL (`fsutil file
/// setCaseSensitiveInfo`), which is rare and not asked here: folding is assumed, so a guard
/// matches more, never less.
pub fn names_fold_case_at(_path: &Path) -> bool {
    true
}
