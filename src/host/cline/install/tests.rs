use super::*;

/// A home and a project of their own, the project holding a rules file and a hook of the user's.
struct Tree {
    _root: tempfile::TempDir,
    paths: Paths,
}

impl Tree {
    fn new() -> Tree {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let project = root.path().join("proj");
        std::fs::create_dir_all(home.join(".cline/data/settings")).unwrap();
        std::fs::write(home.join(".cline/data/settings/providers.json"), "{\"version\":1}\n").unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let paths = Paths { cline_dir: home.join(".cline"), home, project, program: "/opt/hookmux".to_string() };
        Tree { _root: root, paths }
    }

    /// Every file under the tree with its bytes, for comparing before and after.
    fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![self._root.path().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    out.push((path.clone(), Vec::new()));
                    stack.push(path);
                } else {
                    out.push((path.clone(), std::fs::read(&path).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    fn install(&self, scope: Scope) -> Plan {
        let plan = plan(&self.paths, scope).unwrap();
        apply(&plan).unwrap();
        plan
    }

    fn uninstall(&self, scope: Scope) -> Removal {
        let removal = plan_removal(&self.paths, scope);
        apply_removal(&removal).unwrap();
        removal
    }
}

#[test]
fn one_executable_hook_file_per_event_each_running_dispatch() {
    let tree = Tree::new();
    let installed = tree.install(Scope::User);
    let dir = tree.paths.cline_dir.join("hooks");
    assert_eq!(installed.writes.len(), EVENTS.len());
    for event in EVENTS {
        let file = dir.join(event);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("#!/bin/sh\n"), "{text}");
        assert!(text.ends_with("exec /opt/hookmux dispatch --host cline\n"), "{text}");
        assert!(hook_file::is_ours(&text));
        // Runnable where the OS has permission bits (Windows has none to set).
        if let Some(mode) = hookmux_platform::fs::mode(&std::fs::metadata(&file).unwrap()) {
            assert_eq!(mode & 0o777, 0o755, "{event}");
        }
    }
    let found: Vec<&str> = hook_files(&dir).iter().map(|f| f.event).collect();
    assert_eq!(found.len(), EVENTS.len(), "Cline reads every one as its event's hook");
    // Again: nothing to write.
    let again = plan(&tree.paths, Scope::User).unwrap();
    assert!(again.writes.is_empty());
    assert_eq!(again.unchanged.len(), EVENTS.len());
}

#[test]
fn install_then_uninstall_leaves_every_byte_as_it_was() {
    for scope in [Scope::User, Scope::Project] {
        let tree = Tree::new();
        let mine = tree.paths.project.join(".clinerules/hooks/PreToolUse");
        std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
        std::fs::write(&mine, "#!/bin/bash\necho '{}'\n").unwrap();
        std::fs::write(tree.paths.project.join(".clinerules/style.md"), "be brief\n").unwrap();
        let before = tree.snapshot();
        tree.install(scope);
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "#!/bin/bash\necho '{}'\n", "the user's own file stays");
        assert_eq!(users_hook_files(&tree.paths), std::slice::from_ref(&mine), "and is listed: Cline runs it too");
        let removal = tree.uninstall(scope);
        assert_eq!(removal.files.len(), EVENTS.len());
        assert_eq!(tree.snapshot(), before, "{scope:?}");
    }
}

#[test]
fn a_fresh_user_install_is_undone_folders_and_all() {
    let tree = Tree::new();
    std::fs::remove_dir_all(&tree.paths.cline_dir).unwrap();
    let before = tree.snapshot();
    tree.install(Scope::User);
    let removal = tree.uninstall(Scope::User);
    assert_eq!(removal.dirs, [tree.paths.cline_dir.join("hooks"), tree.paths.cline_dir.clone()]);
    assert_eq!(tree.snapshot(), before);
}

#[test]
fn a_fresh_project_install_is_undone_folders_and_all() {
    let tree = Tree::new();
    let before = tree.snapshot();
    let installed = tree.install(Scope::Project);
    assert_eq!(installed.dir, tree.paths.project.join(".clinerules/hooks"));
    let removal = tree.uninstall(Scope::Project);
    assert_eq!(removal.dirs, [tree.paths.project.join(".clinerules/hooks"), tree.paths.project.join(".clinerules")]);
    assert_eq!(tree.snapshot(), before);
}

#[test]
fn a_name_the_user_took_gets_the_next_one() {
    let tree = Tree::new();
    let dir = tree.paths.project.join(".clinerules/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pretooluse"), "echo mine\n").unwrap();
    tree.install(Scope::Project);
    assert_eq!(std::fs::read_to_string(dir.join("pretooluse")).unwrap(), "echo mine\n");
    assert!(hook_file::is_ours(&std::fs::read_to_string(dir.join("PreToolUse.sh")).unwrap()));
    // Both names taken: install says which to rename, and writes nothing.
    let tree = Tree::new();
    let dir = tree.paths.project.join(".clinerules/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("PostToolUse"), "echo mine\n").unwrap();
    std::fs::write(dir.join("PostToolUse.sh"), "echo mine too\n").unwrap();
    let err = plan(&tree.paths, Scope::Project).unwrap_err().to_string();
    assert!(err.contains("PostToolUse, PostToolUse.sh"), "{err}");
}

#[test]
fn a_rules_file_named_clinerules_sends_project_hooks_to_dot_cline() {
    let tree = Tree::new();
    std::fs::write(tree.paths.project.join(".clinerules"), "be brief\n").unwrap();
    let installed = tree.install(Scope::Project);
    assert_eq!(installed.dir, tree.paths.project.join(".cline/hooks"));
    tree.uninstall(Scope::Project);
    assert!(!tree.paths.project.join(".cline").exists());
    assert_eq!(std::fs::read_to_string(tree.paths.project.join(".clinerules")).unwrap(), "be brief\n");
}

#[test]
fn an_older_install_is_brought_up_to_date() {
    let tree = Tree::new();
    tree.install(Scope::User);
    let moved = Paths { program: "/usr/local/bin/hookmux".to_string(), ..tree.paths.clone() };
    let again = plan(&moved, Scope::User).unwrap();
    assert_eq!(again.writes.len(), EVENTS.len(), "the same files, now naming this hookmux");
    assert!(again.writes.iter().all(|(path, _)| path.parent() == Some(&*tree.paths.cline_dir.join("hooks"))));
}

#[test]
fn file_names_are_read_as_cline_reads_them() {
    assert_eq!(event_of("PreToolUse"), Some("PreToolUse"));
    assert_eq!(event_of("pretooluse.PY"), Some("PreToolUse"));
    assert_eq!(event_of("TaskComplete.ps1"), Some("TaskComplete"));
    assert_eq!(event_of("PreCompact.sh"), Some("PreCompact"));
    assert_eq!(event_of("PreToolUse.rb"), None, "not an extension Cline runs");
    assert_eq!(event_of("SessionStart"), None, "a Claude event, not Cline's");
    assert_eq!(event_of(".hookmux-x.tmp"), None);
}
