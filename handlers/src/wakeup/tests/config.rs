//! `.lore.yaml`: real Lore files are accepted, bad keys are reported and defaulted, the project
//! and the store path resolve as documented.

use crate::wakeup::config::{self, LoreConfig, ProjectSource};
use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{Env, ProjectTrust};
use std::path::{Path, PathBuf};

fn parse(text: &str) -> (LoreConfig, Vec<String>) {
    config::parse(text, Path::new("/repo/.lore.yaml")).expect("parses")
}

#[test]
fn a_real_lore_file_is_read_as_it_is() {
    let (config, problems) = parse(
        "vault:\n  pageId: 0123456789abcdef0123456789abcdef\nprofile: conversational@1.0.0\nfeatures:\n  learningExtraction: true\n\
         projects:\n  - name: Widget\n    path: apps/widget\n  - name: Monorepo\n    path: .\nhooks:\n  wakeUp: true\n  autoSave: false\n  saveInterval: 5\n  backgroundAgent:\n    command: codex\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert!(config.wake_up);
    assert_eq!(config.projects.len(), 2);
}

#[test]
fn an_empty_file_is_the_defaults() {
    let (config, problems) = parse("");
    assert!(problems.is_empty());
    assert_eq!(config, LoreConfig { file: Some(PathBuf::from("/repo/.lore.yaml")), ..LoreConfig::default() });
}

#[test]
fn keys_of_the_wrong_type_are_reported_and_defaulted() {
    let (config, problems) =
        parse("hooks:\n  wakeUp: \"no\"\nproject: 7\nprojects:\n  - name: A\n  - 3\nstore: here\n");
    assert!(config.wake_up, "a non-boolean keeps wake-up on");
    assert_eq!(config.project, None);
    assert!(config.projects.is_empty());
    assert_eq!(problems.len(), 5, "{problems:?}");
    assert!(problems[0].contains("`project`"), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("hooks.wakeUp")), "{problems:?}");
}

#[test]
fn a_file_that_is_not_a_mapping_fails_to_load() {
    assert!(config::parse("- a\n- b\n", Path::new("/x/.lore.yaml")).is_err());
    assert!(config::parse("a: [", Path::new("/x/.lore.yaml")).is_err());
}

#[test]
fn discovery_walks_up_and_reports_the_home_relative_path() {
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("code/repo");
    std::fs::create_dir_all(repo.join("deep/er")).unwrap();
    std::fs::write(repo.join(".lore.yaml"), "hooks: [").unwrap();
    let env: Env = [(variable(Folder::Home), home.path().as_os_str())].into_iter().collect();
    let (config, warnings) = config::discover(&repo.join("deep/er"), &env);
    assert_eq!(config, LoreConfig::default());
    assert_eq!(warnings.len(), 1);
    // Named from the home on, in the OS's spelling below it (`~/code/repo\.lore.yaml` on Windows).
    let shown = format!("~/{}", repo.join(".lore.yaml").strip_prefix(home.path()).unwrap().display());
    assert!(warnings[0].starts_with(&format!("[lore] Failed to load {shown}: ")), "{warnings:?}");
    assert!(warnings[0].ends_with(". Using hook defaults."), "{warnings:?}");
    let (_, none) = config::discover(home.path(), &env);
    assert!(none.is_empty(), "no .lore.yaml is not an error");
}

#[test]
fn the_longest_project_path_wins_and_dot_is_the_catch_all() {
    let (config, _) = parse(
        "projects:\n  - name: All\n    path: .\n  - name: Apps\n    path: apps\n  - name: Widget\n    path: apps/widget\n",
    );
    let root = Path::new("/repo");
    let at = |cwd: &str| config::resolve_project(&config, Path::new(cwd), root);
    assert_eq!(at("/repo/apps/widget/src").name, "Widget");
    assert_eq!(at("/repo/apps/widgetry").name, "Apps", "prefixes are whole path components");
    assert_eq!(at("/repo/apps").name, "Apps");
    let fallback = at("/repo/docs");
    assert_eq!((fallback.name.as_str(), fallback.source), ("All", ProjectSource::CatchAll));
    assert_eq!(fallback.siblings, ["Apps", "Widget"]);
    assert_eq!(at("/repo/apps/widget/../web").name, "Apps", "`..` is resolved before matching");
}

#[test]
fn without_projects_the_project_key_then_the_root_name_the_project() {
    let (config, _) = parse("project: acme\n");
    assert_eq!(config::resolve_project(&config, Path::new("/repo/x"), Path::new("/repo")).name, "acme");
    let root = tempfile::tempdir().unwrap();
    let project = config::resolve_project(&LoreConfig::default(), root.path(), root.path());
    assert_eq!(project.source, ProjectSource::Root);
    assert_eq!(PathBuf::from(&project.name), hookmux_platform::fs::canonicalize(root.path()).unwrap());
}

#[test]
fn the_project_root_is_claude_project_dir_else_the_git_root() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join(".git")).unwrap();
    std::fs::create_dir_all(repo.path().join("a/b")).unwrap();
    assert_eq!(config::project_root_for(&repo.path().join("a/b"), &Env::empty()), repo.path());
    let env: Env = [("CLAUDE_PROJECT_DIR", "/elsewhere")].into_iter().collect();
    assert_eq!(config::project_root_for(&repo.path().join("a/b"), &env), Path::new("/elsewhere"));
}

#[test]
#[cfg_attr(not(unix), ignore = "HOME and XDG_DATA_HOME place the user's folders on Unix")]
fn the_store_path_is_lore_db_then_store_path_then_xdg() {
    let (config, _) = parse("store:\n  path: data/lore.db\n");
    assert_eq!(config.store_path.as_deref(), Some(Path::new("/repo/data/lore.db")));
    let env = |pairs: &[(&str, &str)]| -> Env { pairs.iter().copied().collect() };
    assert_eq!(config::store_path(&config, &env(&[("LORE_DB", "/x.db")])), Some(PathBuf::from("/x.db")));
    assert_eq!(config::store_path(&config, &env(&[])), Some(PathBuf::from("/repo/data/lore.db")));
    let (home_config, _) = parse("store:\n  path: ~/notes/lore.db\n");
    assert_eq!(
        config::store_path(&home_config, &env(&[("HOME", "/home/me")])),
        Some(PathBuf::from("/home/me/notes/lore.db"))
    );
    let defaults = LoreConfig::default();
    assert_eq!(
        config::store_path(&defaults, &env(&[("XDG_DATA_HOME", "/data"), ("HOME", "/home/me")])),
        Some(PathBuf::from("/data/hookmux/lore.db"))
    );
    assert_eq!(
        config::store_path(&defaults, &env(&[("HOME", "/home/me")])),
        Some(PathBuf::from("/home/me/.local/share/hookmux/lore.db"))
    );
    assert_eq!(config::store_path(&defaults, &env(&[])), None);
}

#[test]
fn a_postgres_url_in_lore_db_or_store_path_selects_the_server() {
    use crate::wakeup::store::Location;
    let env = |pairs: &[(&str, &str)]| -> Env { pairs.iter().copied().collect() };
    let (config, problems) = parse("store:\n  path: \"postgresql://lore@db.example.com/lore\"\n");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(config.store_path, None, "a URL is not made a path under the repository");
    let shown = |location: Option<Location>| location.map(|l| l.display());
    let trusted = || ProjectTrust::Trusted("test");
    let location = |env: &Env| config::store_location(&config, env, trusted).0;
    assert_eq!(shown(location(&env(&[("USER", "me")]))).as_deref(), Some("postgresql://lore@db.example.com/lore"));
    // LORE_DB wins, file or URL.
    assert_eq!(location(&env(&[("LORE_DB", "/x.db")])), Some(Location::Sqlite(PathBuf::from("/x.db"))));
    assert_eq!(
        shown(location(&env(&[("LORE_DB", "postgres://a:secret@127.0.0.1/x")]))).as_deref(),
        Some("postgres://a@127.0.0.1/x")
    );
    // A URL that cannot be used is reported when the store is opened, without its password.
    match location(&env(&[("LORE_DB", "postgres://a:secret@127.0.0.1/x?sslmode=maybe")])) {
        Some(Location::Invalid(reason)) => {
            assert!(reason.contains("sslmode") && !reason.contains("secret"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_projects_url_is_used_only_for_a_trusted_project() {
    use crate::wakeup::store::Location;
    let (config, _) = parse("store:\n  path: \"postgres://lore:pw@db.example.com/lore\"\n");
    let env: Env = [(variable(Folder::Home), "/home/me")].into_iter().collect();
    let (location, notice) = config::store_location(&config, &env, || ProjectTrust::Untrusted);
    // The user's own store, in the data folder below that home (`~/.local/share` on Unix,
    // `~\AppData\Local` on Windows).
    let own = hookmux_platform::dirs::data(&env).unwrap().join("hookmux").join("lore.db");
    assert!(own.starts_with("/home/me"), "{own:?}");
    assert_eq!(location, Some(Location::Sqlite(own.clone())));
    let notice = notice.expect("one notice");
    assert!(notice.contains("postgres://lore@db.example.com/lore") && !notice.contains("pw@"), "{notice}");
    let shown = config::display_path(&own, &env);
    assert!(notice.contains("not trusted") && shown.starts_with("~/") && notice.contains(&shown), "{notice}");
    // The user's own URL needs no trust, and the question is not asked.
    let env: Env =
        [(variable(Folder::Home), "/home/me"), ("LORE_DB", "postgres://me@127.0.0.1/mine")].into_iter().collect();
    let (location, notice) = config::store_location(&config, &env, || panic!("not asked"));
    assert!(matches!(location, Some(Location::Postgres(_))) && notice.is_none());
}

#[test]
fn identity_is_lore_yaml_then_user() {
    let (config, _) = parse("identity: alice\n");
    let env: Env = [("USER", "bob")].into_iter().collect();
    assert_eq!(config::identity(&config, &env).as_deref(), Some("alice"));
    assert_eq!(config::identity(&LoreConfig::default(), &env).as_deref(), Some("bob"));
}
