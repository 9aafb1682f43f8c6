use super::lines;
use std::io::Write;

#[test]
fn a_line_past_the_bound_is_skipped_and_the_next_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "{{\"n\":1}}").unwrap();
    file.write_all(&vec![b'x'; lines::MAX_LINE_BYTES + 10]).unwrap();
    writeln!(file).unwrap();
    writeln!(file, "not json").unwrap();
    writeln!(file, "{{\"n\":2}}").unwrap();
    drop(file);
    let mut seen = Vec::new();
    let stats = lines::json_lines(&path, |v| seen.push(v["n"].as_i64().unwrap())).unwrap();
    assert_eq!(seen, [1, 2]);
    assert_eq!((stats.lines, stats.skipped, stats.truncated), (4, 2, false));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link (Windows makes one only with a privilege or Developer Mode, Wine none) and a FIFO (mkfifo), which Windows does not have"
)]
fn a_link_or_a_fifo_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("secret");
    std::fs::write(&target, "{\"n\":1}\n").unwrap();
    let link = dir.path().join("link.jsonl");
    hookmux_platform::fs::symlink_file(&target, &link).unwrap();
    assert!(lines::json_lines(&link, |_| panic!("read through a link")).is_err());
    let fifo = dir.path().join("fifo.jsonl");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // Opened without blocking, then refused: no writer ever comes.
    assert!(lines::json_lines(&fifo, |_| panic!("read a fifo")).is_err());
    let names: Vec<String> = lines::entries(dir.path()).into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["secret"]);
}

#[test]
fn a_document_is_read_one_item_at_a_time_and_what_breaks_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.json");
    let read = |text: &str| {
        std::fs::write(&path, text).unwrap();
        let mut seen = Vec::new();
        let stats = lines::json_array_items(&path, "messages", |v| seen.push(v["n"].as_i64().unwrap_or(-1))).unwrap();
        (seen, stats.skipped, stats.truncated)
    };
    let whole = r#"{"other": {"messages": [{"n": 9}]}, "messages": [{"n": 1}, "text", {"n": 2}], "after": 1}"#;
    assert_eq!(read(whole), (vec![1, -1, 2], 0, false));
    // Cut part way: the items before the break are kept.
    assert_eq!(read(r#"{"messages": [{"n": 1}, {"n": 2}, {"n": "#), (vec![1, 2], 1, false));
    for broken in ["[1, 2]", r#"{"messages": "none"}"#, r#"{"messages": null}"#, "not json", ""] {
        assert_eq!(read(broken), (vec![], 1, false), "{broken}");
    }
}
