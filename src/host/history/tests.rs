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
