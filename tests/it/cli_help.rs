//! Every command's `--help` explains every option and argument it lists.

/// `hookmux a b c` for each command in the tree, with the arguments that have no help.
fn undocumented(command: &clap::Command, path: &str, found: &mut Vec<String>) {
    for arg in command.get_arguments() {
        // clap's own --help and --version carry clap's help text.
        if matches!(arg.get_id().as_str(), "help" | "version") {
            continue;
        }
        let help = arg.get_help().or(arg.get_long_help()).map(|h| h.to_string()).unwrap_or_default();
        if help.trim().is_empty() {
            found.push(format!("`{path}`: {}", arg.get_id()));
        }
    }
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        if sub.get_about().is_none() {
            found.push(format!("`{path} {}` has no description", sub.get_name()));
        }
        undocumented(sub, &format!("{path} {}", sub.get_name()), found);
    }
}

#[test]
fn every_option_and_argument_of_every_command_has_help() {
    let command = hookmux::cli::command();
    // clap's own consistency checks, which also build the whole tree for the walk.
    command.clone().debug_assert();
    let mut command = command;
    command.build();
    let mut found = Vec::new();
    undocumented(&command, "hookmux", &mut found);
    assert!(found.is_empty(), "arguments without a doc comment:\n{}", found.join("\n"));
}

#[test]
fn the_walk_reaches_the_handler_commands_and_the_hidden_spellings() {
    let mut command = hookmux::cli::command();
    command.build();
    let mut names = Vec::new();
    fn collect(command: &clap::Command, path: &str, names: &mut Vec<String>) {
        for sub in command.get_subcommands() {
            let path = format!("{path} {}", sub.get_name());
            collect(sub, &path, names);
            names.push(path);
        }
    }
    collect(&command, "hookmux", &mut names);
    for expected in [
        "hookmux memory wake-up",
        "hookmux memory fact retire",
        "hookmux knowledge compact",
        "hookmux uninstall codex",
        "hookmux lore wake-up",
        "hookmux debt scan",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }
}
