//! Who owns a file and who else may change it, as Windows keeps it: the owner SID and the access
//! list (DACL) of the file's security descriptor, read against the token hookmux runs with.
//!
//! What Unix's `0700` is here: an access list that grants the user, the OS (`SYSTEM`) and the
//! administrators everything and no one else anything, protected from what the parent folder
//! would pass down. That is how Windows itself keeps a user's profile folder, so a folder made
//! this way is as private as `C:\Users\<name>`. The OS and the administrators are trusted as root
//! is on Unix: whoever can act as them owns the machine already.

use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::io::{FromRawHandle, OwnedHandle, RawHandle};
use std::path::Path;
use std::ptr::{null, null_mut};
use std::sync::OnceLock;
use windows_sys::core::PWSTR;
use windows_sys::Win32::Foundation::{self as w, LocalFree, HANDLE};
use windows_sys::Win32::Security::Authorization::{
    ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW, GetSecurityInfo,
    SetNamedSecurityInfoW, SetSecurityInfo, SDDL_REVISION_1, SE_FILE_OBJECT,
};
use windows_sys::Win32::Security::{
    self as s, GetAce, GetLengthSid, GetSecurityDescriptorDacl, GetTokenInformation, IsWellKnownSid, LookupAccountSidW,
    ACCESS_ALLOWED_ACE, ACE_HEADER, ACL, PSECURITY_DESCRIPTOR, PSID, SECURITY_ATTRIBUTES, TOKEN_OWNER, TOKEN_USER,
};
use windows_sys::Win32::Storage::FileSystem as f;
use windows_sys::Win32::System::SystemServices::ACCESS_ALLOWED_ACE_TYPE;
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// What lets an account change a folder's entries or a file's bytes, or take that right.
const WRITES: u32 = f::FILE_ADD_FILE
    | f::FILE_ADD_SUBDIRECTORY
    | f::FILE_DELETE_CHILD
    | f::DELETE
    | f::WRITE_DAC
    | f::WRITE_OWNER
    | w::GENERIC_ALL
    | w::GENERIC_WRITE;

/// `TrustedInstaller`, which owns and writes the OS's own files.
const TRUSTED_INSTALLER: &str = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464";

/// A SID, copied out of whatever buffer held it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sid(Vec<u8>);

impl Sid {
    /// # Safety
    /// `psid` points to a valid SID.
    unsafe fn copy(psid: PSID) -> Sid {
        // SAFETY: a valid SID is GetLengthSid bytes long.
        unsafe {
            let len = GetLengthSid(psid) as usize;
            Sid(std::slice::from_raw_parts(psid as *const u8, len).to_vec())
        }
    }

    /// For the Win32 calls that read a SID (none writes through it).
    fn as_psid(&self) -> PSID {
        self.0.as_ptr() as PSID
    }

    /// `S-1-5-21-…`.
    pub fn text(&self) -> String {
        let mut text: PWSTR = null_mut();
        // SAFETY: a valid SID in; on success `text` is a NUL-terminated string we free.
        unsafe {
            if ConvertSidToStringSidW(self.as_psid(), &mut text) == 0 {
                return "an unknown account".to_string();
            }
            let out = wide_to_string(text);
            LocalFree(text as _);
            out
        }
    }

    /// The account's name (`DOMAIN\user`, `Everyone`), else its SID.
    pub fn name(&self) -> String {
        let (mut name_len, mut domain_len, mut kind) = (0u32, 0u32, 0);
        // SAFETY: the first call only asks for the lengths; the second writes within them.
        unsafe {
            LookupAccountSidW(
                null(),
                self.as_psid(),
                null_mut(),
                &mut name_len,
                null_mut(),
                &mut domain_len,
                &mut kind,
            );
            let (mut name, mut domain) = (vec![0u16; name_len as usize], vec![0u16; domain_len as usize]);
            let found = LookupAccountSidW(
                null(),
                self.as_psid(),
                name.as_mut_ptr(),
                &mut name_len,
                domain.as_mut_ptr(),
                &mut domain_len,
                &mut kind,
            );
            if found == 0 || name_len == 0 {
                return self.text();
            }
            let name = String::from_utf16_lossy(&name[..name_len as usize]);
            match String::from_utf16_lossy(&domain[..domain_len as usize]) {
                domain if domain.is_empty() => name,
                domain => format!(r"{domain}\{name}"),
            }
        }
    }

    fn is_well_known(&self, kind: s::WELL_KNOWN_SID_TYPE) -> bool {
        // SAFETY: reads a valid SID.
        unsafe { IsWellKnownSid(self.as_psid(), kind) != 0 }
    }

    fn is_the_os_or_administrators(&self) -> bool {
        self.is_well_known(s::WinLocalSystemSid)
            || self.is_well_known(s::WinBuiltinAdministratorsSid)
            || self.text() == TRUSTED_INSTALLER
    }
}

/// # Safety
/// `text` is a NUL-terminated UTF-16 string.
unsafe fn wide_to_string(text: *const u16) -> String {
    // SAFETY: read up to the NUL the caller promises.
    unsafe {
        let len = (0..).take_while(|&i| *text.add(i) != 0).count();
        String::from_utf16_lossy(std::slice::from_raw_parts(text, len))
    }
}

/// `path` as a NUL-terminated wide string, for the calls that take a name.
pub fn wide(path: &Path) -> Vec<u16> {
    path.as_os_str().encode_wide().chain(std::iter::once(0)).collect()
}

/// The user hookmux runs as, and the owner its token gives what it creates (the user, or the
/// administrators for an elevated process).
pub struct Token {
    pub user: Sid,
    pub owner: Sid,
}

/// This process's [`Token`], read once.
pub fn token() -> io::Result<&'static Token> {
    static TOKEN: OnceLock<Token> = OnceLock::new();
    if let Some(token) = TOKEN.get() {
        return Ok(token);
    }
    let token = read_token()?;
    Ok(TOKEN.get_or_init(|| token))
}

fn read_token() -> io::Result<Token> {
    let mut raw: HANDLE = null_mut();
    // SAFETY: the current process's pseudo-handle; `raw` receives a handle we then own.
    let handle = unsafe {
        if OpenProcessToken(GetCurrentProcess(), s::TOKEN_QUERY, &mut raw) == 0 {
            return Err(io::Error::last_os_error());
        }
        OwnedHandle::from_raw_handle(raw as RawHandle)
    };
    let user = token_information(&handle, s::TokenUser)?;
    let owner = token_information(&handle, s::TokenOwner)?;
    // SAFETY: each buffer holds the structure its class names, which points into the buffer.
    unsafe {
        Ok(Token {
            user: Sid::copy((*(user.as_ptr() as *const TOKEN_USER)).User.Sid),
            owner: Sid::copy((*(owner.as_ptr() as *const TOKEN_OWNER)).Owner),
        })
    }
}

/// The token's information of `class`, in a buffer aligned for the structure it holds.
fn token_information(handle: &OwnedHandle, class: s::TOKEN_INFORMATION_CLASS) -> io::Result<Vec<u64>> {
    use std::os::windows::io::AsRawHandle;
    let mut len = 0u32;
    // SAFETY: the first call asks for the length only; the second writes within the buffer.
    unsafe {
        GetTokenInformation(handle.as_raw_handle() as HANDLE, class, null_mut(), 0, &mut len);
        let mut buffer = vec![0u64; (len as usize).div_ceil(8)];
        if GetTokenInformation(handle.as_raw_handle() as HANDLE, class, buffer.as_mut_ptr().cast(), len, &mut len) == 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(buffer)
    }
}

/// Whether `owner` may own what is the user's: the user, the owner the token gives new objects,
/// the OS, or the administrators.
pub fn is_own(owner: &Sid, token: &Token) -> bool {
    *owner == token.user || *owner == token.owner || owner.is_the_os_or_administrators()
}

/// A file's owner and access list, read from an open handle.
pub struct Descriptor {
    sd: PSECURITY_DESCRIPTOR,
    owner: PSID,
    dacl: *mut ACL,
}

impl Drop for Descriptor {
    fn drop(&mut self) {
        // SAFETY: GetSecurityInfo allocated it with LocalAlloc; owner and dacl point into it.
        unsafe { LocalFree(self.sd as _) };
    }
}

/// The owner and access list of the file `handle` is open on (it needs `READ_CONTROL`, which
/// reading or writing gives).
pub fn descriptor(handle: RawHandle) -> io::Result<Descriptor> {
    let (mut owner, mut dacl, mut sd) = (null_mut(), null_mut(), null_mut());
    // SAFETY: out-pointers to locals; on success `sd` is ours to free and the rest point into it.
    let status = unsafe {
        GetSecurityInfo(
            handle as HANDLE,
            SE_FILE_OBJECT,
            s::OWNER_SECURITY_INFORMATION | s::DACL_SECURITY_INFORMATION,
            &mut owner,
            null_mut(),
            &mut dacl,
            null_mut(),
            &mut sd,
        )
    };
    if status != w::ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    Ok(Descriptor { sd, owner, dacl })
}

impl Descriptor {
    pub fn owner(&self) -> Option<Sid> {
        // SAFETY: a non-null owner points to a valid SID inside the descriptor.
        (!self.owner.is_null()).then(|| unsafe { Sid::copy(self.owner) })
    }

    /// The accounts other than the user, the OS and the administrators that this access list
    /// lets add, remove or rename entries (a folder), write (a file), or change the list itself.
    /// No access list at all lets everyone do everything: then `Everyone`.
    pub fn other_writers(&self, token: &Token) -> Vec<Sid> {
        if self.dacl.is_null() {
            return vec![well_known(s::WinWorldSid)];
        }
        let mut found: Vec<Sid> = Vec::new();
        // SAFETY: a non-null DACL inside the descriptor; GetAce returns pointers into it, each
        // an ACE whose header says its type, and an allowing ACE's SID starts at `SidStart`.
        unsafe {
            for index in 0..(*self.dacl).AceCount {
                let mut ace = null_mut();
                if GetAce(self.dacl, u32::from(index), &mut ace) == 0 {
                    continue;
                }
                let header = &*(ace as *const ACE_HEADER);
                let inherit_only = u32::from(header.AceFlags) & s::INHERIT_ONLY_ACE != 0;
                if u32::from(header.AceType) != ACCESS_ALLOWED_ACE_TYPE || inherit_only {
                    continue;
                }
                let allowed = &*(ace as *const ACCESS_ALLOWED_ACE);
                if allowed.Mask & WRITES == 0 {
                    continue;
                }
                let sid = Sid::copy(&allowed.SidStart as *const u32 as PSID);
                let placeholder =
                    sid.is_well_known(s::WinCreatorOwnerSid) || sid.is_well_known(s::WinCreatorOwnerRightsSid);
                if !(placeholder || is_own(&sid, token) || found.contains(&sid)) {
                    found.push(sid);
                }
            }
        }
        found
    }
}

fn well_known(kind: s::WELL_KNOWN_SID_TYPE) -> Sid {
    let mut buffer = vec![0u8; s::SECURITY_MAX_SID_SIZE as usize];
    let mut len = buffer.len() as u32;
    // SAFETY: writes at most `len` bytes into the buffer.
    unsafe { s::CreateWellKnownSid(kind, null_mut(), buffer.as_mut_ptr().cast(), &mut len) };
    buffer.truncate(len as usize);
    Sid(buffer)
}

/// A security descriptor that grants the user, the OS and the administrators everything and no
/// one else anything, protected from the parent's inheritable entries; a folder's passes the same
/// on to everything made inside it.
struct Private(PSECURITY_DESCRIPTOR);

// SAFETY: made once and never changed or freed; Win32 only reads it.
unsafe impl Send for Private {}
// SAFETY: as above.
unsafe impl Sync for Private {}

impl Private {
    fn dacl(&self) -> *const ACL {
        let (mut present, mut dacl, mut defaulted) = (0, null_mut(), 0);
        // SAFETY: a valid descriptor made by ConvertStringSecurityDescriptorToSecurityDescriptorW.
        unsafe { GetSecurityDescriptorDacl(self.0, &mut present, &mut dacl, &mut defaulted) };
        dacl
    }
}

fn private(folder: bool) -> io::Result<&'static Private> {
    static FOLDER: OnceLock<Private> = OnceLock::new();
    static FILE: OnceLock<Private> = OnceLock::new();
    let cell = if folder { &FOLDER } else { &FILE };
    if let Some(made) = cell.get() {
        return Ok(made);
    }
    let user = token()?.user.text();
    let inherit = if folder { "OICI" } else { "" };
    let sddl = format!("D:P(A;{inherit};FA;;;{user})(A;{inherit};FA;;;SY)(A;{inherit};FA;;;BA)");
    let sddl: Vec<u16> = sddl.encode_utf16().chain(std::iter::once(0)).collect();
    let mut sd = null_mut();
    // SAFETY: a NUL-terminated string in; the descriptor out is never freed (see `Private`).
    if unsafe {
        ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.as_ptr(), SDDL_REVISION_1, &mut sd, null_mut())
    } == 0
    {
        return Err(io::Error::last_os_error());
    }
    // A second thread may have made one too: the one kept is freed never, the other leaks once.
    Ok(cell.get_or_init(|| Private(sd)))
}

/// Creates the folder `path` private to the user (its parent must exist).
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    let attributes = SECURITY_ATTRIBUTES {
        nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
        lpSecurityDescriptor: private(true)?.0,
        bInheritHandle: 0,
    };
    // SAFETY: a NUL-terminated name and a descriptor that outlives the call.
    if unsafe { f::CreateDirectoryW(wide(path).as_ptr(), &attributes) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Replaces the access list of the folder `path` with the private one.
pub fn make_private_by_path(path: &Path, folder: bool) -> io::Result<()> {
    let dacl = private(folder)?.dacl();
    // SAFETY: a NUL-terminated name and an access list that outlives the call.
    let status = unsafe {
        SetNamedSecurityInfoW(
            wide(path).as_ptr(),
            SE_FILE_OBJECT,
            s::DACL_SECURITY_INFORMATION | s::PROTECTED_DACL_SECURITY_INFORMATION,
            null_mut(),
            null_mut(),
            dacl,
            null(),
        )
    };
    if status != w::ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    Ok(())
}

/// Replaces the access list of the file `handle` is open on with the private one; the handle
/// needs `WRITE_DAC`.
pub fn make_private_by_handle(handle: RawHandle) -> io::Result<()> {
    let dacl = private(false)?.dacl();
    // SAFETY: an open handle and an access list that outlives the call.
    let status = unsafe {
        SetSecurityInfo(
            handle as HANDLE,
            SE_FILE_OBJECT,
            s::DACL_SECURITY_INFORMATION | s::PROTECTED_DACL_SECURITY_INFORMATION,
            null_mut(),
            null_mut(),
            dacl,
            null(),
        )
    };
    if status != w::ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    Ok(())
}
