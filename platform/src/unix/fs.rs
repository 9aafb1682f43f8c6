//! Files and folders on Unix: modes, owners (the effective user id, the one the kernel checks
//! access with), `O_NOFOLLOW` and `O_NONBLOCK`.

use crate::fs::{Access, NotPrivate};
use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

const PRIVATE_DIR: u32 = 0o700;

fn access_mode(access: Access) -> u32 {
    match access {
        Access::Private => 0o600,
        Access::Shared => 0o644,
        Access::Executable => 0o755,
        Access::Usual => 0o666,
    }
}

pub fn create_with(options: &mut OpenOptions, access: Access) -> &mut OpenOptions {
    options.mode(access_mode(access))
}

pub fn permissions(access: Access) -> Option<Permissions> {
    Some(Permissions::from_mode(access_mode(access)))
}

pub fn create_private_dirs(dir: &Path) -> io::Result<()> {
    fs::DirBuilder::new().recursive(true).mode(PRIVATE_DIR).create(dir)
}

pub fn make_dir_private(dir: &Path) -> io::Result<()> {
    fs::set_permissions(dir, Permissions::from_mode(PRIVATE_DIR))
}

pub fn make_file_private(file: &File) -> io::Result<()> {
    file.set_permissions(Permissions::from_mode(access_mode(Access::Private)))
}

pub fn open_no_follow(options: &OpenOptions, path: &Path) -> io::Result<File> {
    open_with_flags(options, path, libc::O_NOFOLLOW)
}

pub fn open_no_follow_nonblocking(options: &OpenOptions, path: &Path) -> io::Result<File> {
    // O_NONBLOCK makes opening a FIFO return at once; on a regular file it changes nothing.
    open_with_flags(options, path, libc::O_NOFOLLOW | libc::O_NONBLOCK)
}

/// `custom_flags` replaces the flags set before, so they are set in one call, on a copy.
fn open_with_flags(options: &OpenOptions, path: &Path, flags: libc::c_int) -> io::Result<File> {
    options.clone().custom_flags(flags).open(path)
}

/// `O_NOFOLLOW` on a link fails with `ELOOP` (Linux, macOS and the BSDs alike).
pub fn is_link_refusal(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ELOOP)
}

pub fn is_link(meta: &Metadata) -> bool {
    meta.file_type().is_symlink()
}

pub fn is_own_single_file(file: &File) -> io::Result<bool> {
    let meta = file.metadata()?;
    Ok(meta.file_type().is_file() && meta.nlink() == 1 && meta.uid() == effective_uid())
}

pub fn why_not_private_dir(dir: &Path) -> io::Result<Option<NotPrivate>> {
    let meta = fs::symlink_metadata(dir)?;
    let me = effective_uid();
    Ok(if is_link(&meta) {
        Some(NotPrivate::Link)
    } else if !meta.is_dir() {
        Some(NotPrivate::NotAFolder)
    } else if meta.uid() != me {
        Some(NotPrivate::Owner { owner: format!("user id {}", meta.uid()), me: me.to_string() })
    } else if meta.mode() & 0o022 != 0 {
        Some(NotPrivate::OpenToOthers {
            how: format!("mode {:o}", meta.mode() & 0o7777),
            fix: Some(format!("chmod go-w {}", dir.display())),
        })
    } else {
        None
    })
}

fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

pub fn mode(meta: &Metadata) -> Option<u32> {
    Some(meta.permissions().mode() & 0o7777)
}

pub fn set_mode(path: &Path, mode: u32) -> io::Result<bool> {
    fs::set_permissions(path, Permissions::from_mode(mode)).map(|()| true)
}

pub fn make_runnable(path: &Path) -> io::Result<()> {
    let mode = fs::metadata(path)?.permissions().mode();
    fs::set_permissions(path, Permissions::from_mode(mode | (mode & 0o444) >> 2))
}

pub fn open_to_others(meta: &Metadata) -> bool {
    meta.permissions().mode() & 0o077 != 0
}

pub fn lacks_execute_permission(meta: &Metadata) -> bool {
    meta.permissions().mode() & 0o111 == 0
}

pub fn check_can_write_into(dir: &Path) -> io::Result<()> {
    let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))?;
    // SAFETY: access reads a NUL-terminated path that lives across the call.
    if unsafe { libc::access(path.as_ptr(), libc::W_OK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The device and the inode: an inode number is unique on its file system only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    device: u64,
    inode: u64,
}

impl FileId {
    fn of(meta: &Metadata) -> FileId {
        FileId { device: meta.dev(), inode: meta.ino() }
    }
}

pub fn file_id_of_path(path: &Path) -> io::Result<FileId> {
    fs::metadata(path).map(|meta| FileId::of(&meta))
}

pub fn file_id_of(file: &File) -> io::Result<FileId> {
    file.metadata().map(|meta| FileId::of(&meta))
}

pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(path)
}

pub fn set_modified(path: &Path, at: std::time::SystemTime) -> io::Result<()> {
    File::open(path)?.set_modified(at)
}

pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    file.read_exact_at(buf, offset)
}

pub fn symlink_file(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

pub fn symlink_dir(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// macOS answers for each volume through `pathconf(_PC_CASE_SENSITIVE)`: 0 where names fold.
#[cfg(target_os = "macos")]
pub fn names_fold_case_at(path: &Path) -> bool {
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else { return true };
    // SAFETY: pathconf reads a NUL-terminated path that lives across the call.
    let sensitive = unsafe { libc::pathconf(name.as_ptr(), libc::_PC_CASE_SENSITIVE) };
    sensitive != 1
}

/// Linux folds case per folder (ext4 and f2fs's `casefold` attribute, `chattr +F`) or per mount
/// (FAT, exFAT, NTFS, SMB): the folder's flags, then its file system's type.
#[cfg(target_os = "linux")]
pub fn names_fold_case_at(path: &Path) -> bool {
    // linux/fs.h; the libc crate does not name these.
    const FS_CASEFOLD_FL: libc::c_long = 0x4000_0000;
    const FOLDING_FILE_SYSTEMS: &[i64] = &[
        0x4d44,      // MSDOS_SUPER_MAGIC: FAT
        0x2011_bab0, // EXFAT_SUPER_MAGIC
        0x5346_544e, // NTFS_SB_MAGIC (ntfs-3g, ntfs)
        0x7366_746e, // ntfs3
        0xfe53_4d42, // SMB2_SUPER_MAGIC
        0xff53_4d42, // CIFS_SUPER_MAGIC
        0x517b,      // SMB_SUPER_MAGIC
    ];
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else { return true };
    // SAFETY: statfs reads a NUL-terminated path that lives across the call and writes one
    // statfs, zero-initialised here.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(name.as_ptr(), &mut stat) } != 0 {
        return true;
    }
    #[allow(clippy::unnecessary_cast)] // f_type is i64 on some targets, u32 or i32 on others.
    if FOLDING_FILE_SYSTEMS.contains(&(stat.f_type as i64)) {
        return true;
    }
    let Ok(dir) = OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW).open(path) else {
        return false;
    };
    let mut flags: libc::c_long = 0;
    // SAFETY: FS_IOC_GETFLAGS writes one long into `flags`; a file system without flags says so
    // with an error, and then no folder of it folds case by attribute.
    let got = unsafe { libc::ioctl(std::os::fd::AsRawFd::as_raw_fd(&dir), libc::FS_IOC_GETFLAGS, &mut flags) };
    got == 0 && flags & FS_CASEFOLD_FL != 0
}

/// Another Unix: not told, so folding is assumed (a guard then matches more, never less).
#[cfg(not(any(target_os = "macos", target_os = "linux")))]
pub fn names_fold_case_at(_path: &Path) -> bool {
    true
}
