//! Every hookmux writer of a task's KNOWLEDGE.jsonl against the others and against a full disk:
//! entries added while a compaction runs are kept, and a failed add leaves the file as it was.

use crate::common;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const TASK: &str = ".claude/tasks/20260201-120000_auth_refactor_task";

fn project_in(dir: &Path) {
    std::fs::create_dir_all(dir.join(TASK)).unwrap();
    std::fs::write(dir.join(".claude/TASK.md"), format!("{TASK}/PLAN.md\n")).unwrap();
    std::fs::write(dir.join(TASK).join("PLAN.md"), "status: in progress\n").unwrap();
}

fn knowledge_file(dir: &Path) -> PathBuf {
    dir.join(TASK).join("KNOWLEDGE.jsonl")
}

/// `hookmux ARGS` in the project, with a clean environment; `limit` caps the size of the files
/// it writes (`RLIMIT_FSIZE`), with `SIGXFSZ` ignored so that a write past it fails with `EFBIG`
/// instead of killing the process.
fn hookmux(dir: &Path, args: &[&str], limit: Option<u64>) -> Output {
    hookmux_with_stdin(dir, args, limit, Stdio::null())
}

fn hookmux_with_stdin(dir: &Path, args: &[&str], limit: Option<u64>, stdin: Stdio) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hookmux"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir.join("home"))
        .env("TMPDIR", dir)
        .envs(common::platform_names(&[
            ("HOME".to_string(), dir.join("home").to_string_lossy().into_owned()),
            ("TMPDIR".to_string(), dir.to_string_lossy().into_owned()),
        ]))
        .current_dir(dir)
        .stdin(stdin);
    if let Some(limit) = limit {
        limit_file_size(&mut command, limit);
    }
    command.output().expect("run hookmux")
}

/// Caps the size of a file hookmux may write (`RLIMIT_FSIZE`), with SIGXFSZ ignored so that a
/// write past it fails rather than ends the process.
#[cfg(unix)]
fn limit_file_size(command: &mut Command, limit: u64) {
    {
        use std::os::unix::process::CommandExt;
        let pre_exec = move || {
            let cap = libc::rlimit { rlim_cur: limit as libc::rlim_t, rlim_max: limit as libc::rlim_t };
            // SAFETY: setrlimit and signal only change this (forked) process; both are
            // async-signal-safe. An ignored signal stays ignored across exec.
            unsafe {
                if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            Ok(())
        };
        // SAFETY: the closure calls only async-signal-safe functions.
        unsafe { command.pre_exec(pre_exec) };
    }
}

/// Windows has no file size limit to set on a process: the tests that need one are Unix's.
#[cfg(not(unix))]
fn limit_file_size(_command: &mut Command, _limit: u64) {
    panic!("no RLIMIT_FSIZE on this OS")
}

fn text(out: &Output) -> String {
    format!("{:?}: {}{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every line of the file is one JSON object; returns their texts.
fn texts(file: &Path) -> Vec<String> {
    let content = std::fs::read_to_string(file).unwrap_or_default();
    assert!(content.is_empty() || content.ends_with('\n'), "a torn last line: {content:?}");
    content
        .lines()
        .map(|line| {
            let entry: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("a torn or glued line ({e}): {line:?}"));
            entry["txt"].as_str().unwrap_or_else(|| panic!("no txt: {line}")).to_string()
        })
        .collect()
}

#[test]
fn adds_while_compaction_loops_are_all_kept() {
    let dir = tempfile::tempdir().unwrap();
    project_in(dir.path());
    std::fs::write(knowledge_file(dir.path()), "{\"t\":\"ℹ️\",\"txt\":\"DB is PostgreSQL 15\"}\n").unwrap();
    const WRITERS: usize = 8;
    const EACH: usize = 8;
    let done = Arc::new(AtomicBool::new(false));
    let compactor = {
        let (dir, done) = (dir.path().to_path_buf(), done.clone());
        std::thread::spawn(move || {
            let mut rounds = 0;
            while !done.load(Ordering::SeqCst) || rounds == 0 {
                let out = hookmux(&dir, &["knowledge", "compact", "--force", "--max-entries", "100000"], None);
                assert!(out.status.success(), "{}", text(&out));
                rounds += 1;
            }
            rounds
        })
    };
    let writers: Vec<_> = (0..WRITERS)
        .map(|writer| {
            let dir = dir.path().to_path_buf();
            std::thread::spawn(move || {
                for i in 0..EACH {
                    let lesson = format!("Use lesson {writer}-{i} in every query");
                    let out = hookmux(&dir, &["knowledge", "add", "best", &lesson], None);
                    assert!(out.status.success(), "{}", text(&out));
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    done.store(true, Ordering::SeqCst);
    let rounds = compactor.join().unwrap();
    let kept = texts(&knowledge_file(dir.path()));
    let lost: Vec<String> = (0..WRITERS)
        .flat_map(|writer| (0..EACH).map(move |i| format!("Use lesson {writer}-{i} in every query")))
        .filter(|lesson| !kept.contains(lesson))
        .collect();
    assert!(lost.is_empty(), "{} of {} entries lost over {rounds} compactions: {lost:?}", lost.len(), WRITERS * EACH);
    assert_eq!(kept.len(), WRITERS * EACH + 1);
}

/// A file of valid entries `size` bytes long.
fn entries_of_size(size: usize) -> String {
    let line = |txt: &str| format!("{{\"t\":\"✅\",\"txt\":\"{txt}\"}}\n");
    let short = line("Use streams");
    let mut out = short.repeat(size / short.len() - 1);
    let pad = size - out.len() - line("").len();
    out.push_str(&line(&"x".repeat(pad)));
    assert_eq!(out.len(), size);
    out
}

#[test]
#[cfg_attr(not(unix), ignore = "RLIMIT_FSIZE is POSIX's: Windows sets no file size limit on a process")]
fn an_add_past_the_file_size_limit_leaves_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    project_in(dir.path());
    let file = knowledge_file(dir.path());
    let before = entries_of_size(1000);
    std::fs::write(&file, &before).unwrap();
    // Room for a few bytes of the line, not all of it.
    let out = hookmux(dir.path(), &["knowledge", "add", "best", "Use the index on orders"], Some(1010));
    assert!(!out.status.success(), "the add cannot have succeeded: {}", text(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "no half line left behind");

    let out = hookmux(dir.path(), &["knowledge", "add", "best", "Use the index on orders"], None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(texts(&file).last().map(String::as_str), Some("Use the index on orders"));
}

#[test]
#[cfg_attr(not(unix), ignore = "RLIMIT_FSIZE is POSIX's: Windows sets no file size limit on a process")]
fn the_hooks_handoff_entry_past_the_file_size_limit_leaves_the_file_as_it_was() {
    const SESSION: &str = "7b6b5f32-8486-4727-aaf9-dffe030c4e74";
    let dir = tempfile::tempdir().unwrap();
    project_in(dir.path());
    let an_hour_ago =
        hookmux_handlers::brewcode::to_iso_string(std::time::SystemTime::now() - std::time::Duration::from_secs(3600));
    let lock = serde_json::json!({"task_path": format!("{TASK}/PLAN.md"), "started_at": an_hour_ago, "session_id": SESSION, "bound_at": an_hour_ago});
    std::fs::write(dir.path().join(TASK).join(".lock"), lock.to_string()).unwrap();
    let file = knowledge_file(dir.path());
    let before = entries_of_size(1000);
    std::fs::write(&file, &before).unwrap();
    let mut event = common::event("events/PreCompact.json", dir.path());
    event["session_id"] = Value::from(SESSION);
    let stdin = dir.path().join("event.json");
    std::fs::write(&stdin, event.to_string()).unwrap();
    let run = |limit| {
        let stdin = std::fs::File::open(&stdin).unwrap();
        hookmux_with_stdin(dir.path(), &["run", "knowledge-compact"], limit, Stdio::from(stdin))
    };

    let out = run(Some(1010));
    assert!(out.status.success(), "the hook always lets the compaction go on: {}", text(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "no half handoff entry left behind");
    let log = std::fs::read_to_string(dir.path().join(".claude/tasks/logs/brewcode.log")).unwrap();
    assert!(log.contains("[knowledge] appendKnowledge failed: EFBIG: file too large, write"), "{log}");

    assert!(run(None).status.success());
    assert_eq!(texts(&file).last().map(String::as_str), Some("Handoff at phase 1: context auto-compact"));
}

#[test]
fn an_add_after_an_unfinished_line_starts_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    project_in(dir.path());
    let file = knowledge_file(dir.path());
    std::fs::write(&file, "{\"t\":\"✅\",\"txt\":\"Use streams\"}\n{\"t\":\"✅\",\"tx").unwrap();
    let out = hookmux(dir.path(), &["knowledge", "add", "best", "Use the index on orders"], None);
    assert!(out.status.success(), "{}", text(&out));
    let content = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    assert_eq!(lines[1], "{\"t\":\"✅\",\"tx", "the unfinished line is kept as it was, on its own");
    let added: Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(added["txt"], "Use the index on orders");
}

/// Unmounts the tmpfs when the test ends, passed or not.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "mounts a tmpfs, which is Linux's; the RLIMIT_FSIZE tests cover a failed add everywhere"
)]
fn an_add_on_a_full_disk_leaves_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mount = dir.path().join("disk");
    std::fs::create_dir(&mount).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&mount)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !mounted {
        return common::skip(
            "tmpfs",
            "cannot mount a tmpfs here (not root?); the RLIMIT_FSIZE test covers a failed add",
        );
    }
    let _unmount = Mounted(mount.clone());
    project_in(&mount);
    let file = knowledge_file(&mount);
    // tmpfs hands out whole pages: the file ends a few bytes before a page's end, so the line
    // fits in part, and the next page is not there to take the rest.
    let before = entries_of_size(4096 - 10);
    std::fs::write(&file, &before).unwrap();
    let filler = mount.join("filler");
    {
        use std::io::Write;
        let mut out = std::fs::File::create(&filler).unwrap();
        let page = [b'f'; 4096];
        while out.write_all(&page).is_ok() {}
    }
    let out = hookmux(&mount, &["knowledge", "add", "best", "Use the index on orders"], None);
    assert!(!out.status.success(), "the disk is full: {}", text(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "no half line left behind");

    std::fs::remove_file(&filler).unwrap();
    let out = hookmux(&mount, &["knowledge", "add", "best", "Use the index on orders"], None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(texts(&file).last().map(String::as_str), Some("Use the index on orders"));
}
