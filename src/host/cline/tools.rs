//! Cline's tools as Claude Code's. Several of Cline's tools take a list (`run_commands` runs
//! every command of `commands`, `read_files` reads every file of `files`), where Claude Code makes
//! one call per command or file: such a call is one Claude call per item, each with its own hooks,
//! and a hook's rewrite of one item goes back to that item.
//!
//! | Cline (3.0.65) | Claude Code |
//! |---|---|
//! | `run_commands {commands: [c, …]}` | one `Bash {command: c}` per command |
//! | `editor {path, new_text}` (creates the file) | `Write {file_path, content}` |
//! | `editor {path, old_text, new_text}` | `Edit {file_path, old_string, new_string, replace_all: false}` |
//! | `editor {path, new_text, insert_line}` | `Edit {file_path, old_string: "", new_string, insert_line}` |
//! | `read_files {files: [{path, start_line, end_line}, …]}` | one `Read {file_path, offset, limit}` per file |
//! | `search_codebase {queries: [q, …]}` | one `Grep {pattern: q}` per query |
//! | `fetch_web_content {requests: [{url, prompt}, …]}` | one `WebFetch {url, prompt}` per request |
//! | `spawn_agent {systemPrompt, task}` | `Agent {description: "", prompt: task, subagent_type: "general-purpose", system_prompt}` |
//! | an MCP server's tool `<server>__<tool>` | `mcp__<server>__<tool>`, its input as it is |
//! | anything else (`ask_question`, `team_*`) | its own name and input |
//!
//! A result comes as Cline gives it to the model, one item per part: a shell command's
//! (`[Command exited with code N]` first when it failed, then its stdout, then `[stderr]` and its
//! stderr) is Claude's `{stdout, stderr, interrupted, isImage}`, or a failure `Exit code N`; an
//! item with `success: false` or an `error` is a failure with that error.

use serde_json::{json, Map, Value};

/// One Claude call that a Cline call stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The Claude tool: `Bash`, `Write`, …, or Cline's own name.
    pub claude: String,
    pub input: Value,
}

/// How one part of a Cline call ended, as Claude Code reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum Result {
    /// The tool's result, in Claude's shape (`tool_response`).
    Done(Value),
    /// The tool failed: the error as Claude Code gives it (`error`).
    Failed(String),
}

/// The list a tool takes its items from, and how one item reads as a Claude call.
fn listed(tool: &str) -> Option<(&'static str, &'static str)> {
    match tool {
        "run_commands" => Some(("commands", "Bash")),
        "read_files" => Some(("files", "Read")),
        "search_codebase" => Some(("queries", "Grep")),
        "fetch_web_content" => Some(("requests", "WebFetch")),
        _ => None,
    }
}

/// The Claude calls a Cline call stands for, in order; always at least one.
pub fn parts(tool: &str, input: &Value) -> Vec<Part> {
    let part = |claude: &str, input: Value| Part { claude: claude.to_string(), input };
    if let Some((field, claude)) = listed(tool) {
        let items: Vec<Value> = match input.get(field) {
            Some(Value::Array(items)) if !items.is_empty() => items.clone(),
            Some(Value::String(one)) => vec![Value::String(one.clone())],
            // No list to read: one call with the input as it came, so the hooks still run.
            _ => return vec![part(claude, input.clone())],
        };
        return items.iter().map(|item| part(claude, claude_item(tool, item))).collect();
    }
    vec![match tool {
        "editor" => {
            let path = input.get("path").cloned().unwrap_or(Value::Null);
            let new_text = input.get("new_text").cloned().unwrap_or_else(|| "".into());
            match (input.get("insert_line").filter(|l| !l.is_null()), input.get("old_text").filter(|t| !t.is_null())) {
                (Some(line), _) => part(
                    "Edit",
                    json!({"file_path": path, "old_string": "", "new_string": new_text, "replace_all": false, "insert_line": line}),
                ),
                (None, Some(old)) => part(
                    "Edit",
                    json!({"file_path": path, "old_string": old, "new_string": new_text, "replace_all": false}),
                ),
                (None, None) => part("Write", json!({"file_path": path, "content": new_text})),
            }
        }
        "spawn_agent" => part(
            "Agent",
            json!({
                "description": "",
                "prompt": input.get("task").cloned().unwrap_or_else(|| "".into()),
                "subagent_type": "general-purpose",
                "system_prompt": input.get("systemPrompt").cloned().unwrap_or(Value::Null),
            }),
        ),
        other => part(&claude_mcp_name(other).unwrap_or_else(|| other.to_string()), input.clone()),
    }]
}

/// Cline names an MCP server's tool `<server>__<tool>` (`probe__echo`), where Claude Code, and so
/// the matchers users write (`mcp__.*`), name it `mcp__<server>__<tool>`. Cline's own tools have
/// no `__` in their names. (A name past 64 characters Cline shortens to a hash, which names no
/// server: it stays as it is.)
fn claude_mcp_name(name: &str) -> Option<String> {
    if name.starts_with("mcp__") {
        return None;
    }
    let (server, tool) = name.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then(|| format!("mcp__{name}"))
}

/// One item of a listed tool as the Claude call's input.
fn claude_item(tool: &str, item: &Value) -> Value {
    match tool {
        "run_commands" => json!({"command": item}),
        "search_codebase" => json!({"pattern": item}),
        "read_files" => {
            let Some(file) = item.as_object() else { return json!({"file_path": item}) };
            let mut out = Map::new();
            out.insert("file_path".into(), file.get("path").cloned().unwrap_or(Value::Null));
            let start = file.get("start_line").and_then(Value::as_u64);
            let end = file.get("end_line").and_then(Value::as_u64);
            if let Some(start) = start {
                out.insert("offset".into(), start.into());
            }
            if let Some(end) = end {
                out.insert("limit".into(), (end + 1).saturating_sub(start.unwrap_or(1)).into());
            }
            Value::Object(out)
        }
        _ => item.clone(),
    }
}

/// How each part of a call ended, from the tool's `output` (and its `error`, when the whole call
/// failed), in the order of [`parts`].
pub fn results(tool: &str, parts: &[Part], output: &Value, error: Option<&str>) -> Vec<Result> {
    let items: Vec<Value> = match output {
        Value::Array(items) if listed(tool).is_some() => items.clone(),
        one => vec![one.clone()],
    };
    parts
        .iter()
        .enumerate()
        .map(|(at, part)| match items.get(at) {
            Some(item) => item_result(part, item, error),
            None => Result::Failed(error.unwrap_or("the tool gave no result").to_string()),
        })
        .collect()
}

fn item_result(part: &Part, item: &Value, error: Option<&str>) -> Result {
    let text = item.get("result").map(super::super::answer::as_text).unwrap_or_default();
    let failed = item.get("success") == Some(&Value::Bool(false))
        || item.get("error").is_some_and(|e| !e.is_null())
        || error.is_some();
    if part.claude == "Bash" {
        let (exit, stdout, stderr) = shell_output(&text);
        return match exit {
            Some(code) if code != 0 => Result::Failed(format!("Exit code {code}")),
            _ if failed => Result::Failed(item_error(item, error)),
            _ => Result::Done(json!({"stdout": stdout, "stderr": stderr, "interrupted": false, "isImage": false})),
        };
    }
    if failed {
        return Result::Failed(item_error(item, error));
    }
    let input = &part.input;
    let field = |name: &str| input.get(name).cloned().unwrap_or(Value::Null);
    Result::Done(match part.claude.as_str() {
        "Write" => json!({
            "type": "create", "filePath": field("file_path"), "content": field("content"),
            "structuredPatch": [], "originalFile": null,
        }),
        "Edit" => json!({
            "filePath": field("file_path"), "oldString": field("old_string"), "newString": field("new_string"),
            "originalFile": null, "structuredPatch": [], "userModified": false, "replaceAll": false,
        }),
        "Read" => json!({"type": "text", "file": {"filePath": field("file_path"), "content": text}}),
        "Grep" => json!({"mode": "content", "content": text}),
        "WebFetch" => json!({"url": field("url"), "result": text}),
        "Agent" => json!({
            "status": item.get("finishReason").cloned().unwrap_or_else(|| "completed".into()),
            "content": [{"type": "text", "text": item.get("text").cloned().unwrap_or_else(|| "".into())}],
        }),
        _ => item.clone(),
    })
}

/// A failed item's error: its own `error`, else the call's (Cline gives `[object Object]` for a
/// tool that threw, so the object's own `error` comes first).
fn item_error(item: &Value, call_error: Option<&str>) -> String {
    item.get("error")
        .and_then(|e| {
            e.as_str().map(str::to_string).or_else(|| e.get("message").and_then(Value::as_str).map(str::to_string))
        })
        .or_else(|| call_error.filter(|e| *e != "[object Object]").map(str::to_string))
        .unwrap_or_else(|| "the tool failed".to_string())
}

/// A shell command's result as (its exit code when it failed, stdout, stderr).
pub fn shell_output(text: &str) -> (Option<i64>, String, String) {
    let (exit, rest) = match text.strip_prefix("[Command exited with code ") {
        Some(after) => match after.split_once(']') {
            Some((code, rest)) => (code.trim().parse::<i64>().ok(), rest.strip_prefix('\n').unwrap_or(rest)),
            None => (None, text),
        },
        None => (None, text),
    };
    let (stdout, stderr) = match rest.find("\n[stderr]\n") {
        Some(at) => (&rest[..at], &rest[at + "\n[stderr]\n".len()..]),
        None => (rest, ""),
    };
    (exit, stdout.to_string(), stderr.to_string())
}

/// The Cline tool's whole input with each part's rewrite (in Claude's shape) written back to its
/// own item; parts without one keep theirs. Cline runs the input it is given in place of the
/// model's, as Claude Code does with `updatedInput`.
pub fn cline_input(
    tool: &str,
    input: &Value,
    parts: &[Part],
    updated: &[Option<Value>],
) -> std::result::Result<Value, String> {
    if let Some((field, _)) = listed(tool) {
        let Some(Value::Array(items)) = input.get(field) else {
            return Err(format!("Cline's `{tool}` call has no `{field}` list to write the rewrite into"));
        };
        let mut items = items.clone();
        for (at, rewrite) in updated.iter().enumerate() {
            let Some(rewrite) = rewrite else { continue };
            let Some(item) = items.get_mut(at) else { continue };
            *item = cline_item(tool, item, rewrite)?;
        }
        let mut out = input.as_object().cloned().unwrap_or_default();
        out.insert(field.into(), Value::Array(items));
        return Ok(Value::Object(out));
    }
    let (Some(rewrite), Some(part)) = (updated.first().and_then(Option::as_ref), parts.first()) else {
        return Ok(input.clone());
    };
    let Some(claude) = rewrite.as_object() else { return Err("`updatedInput` is not an object".to_string()) };
    let text = |name: &str| claude.get(name).filter(|v| v.is_string()).cloned();
    match (tool, part.claude.as_str()) {
        ("editor", "Write") => {
            let (Some(path), Some(content)) = (text("file_path"), text("content")) else {
                return Err("a Write needs `file_path` and `content` strings".to_string());
            };
            Ok(json!({"path": path, "new_text": content}))
        }
        ("editor", "Edit") => {
            if claude.get("replace_all") == Some(&Value::Bool(true)) {
                return Err(
                    "Cline's editor replaces one occurrence only, so `replace_all: true` cannot be applied".to_string()
                );
            }
            let (Some(path), Some(old), Some(new)) = (text("file_path"), text("old_string"), text("new_string")) else {
                return Err("an Edit needs `file_path`, `old_string` and `new_string` strings".to_string());
            };
            match input.get("insert_line").filter(|l| !l.is_null()) {
                Some(line) if old.as_str() == Some("") => {
                    let line = claude.get("insert_line").cloned().unwrap_or_else(|| line.clone());
                    Ok(json!({"path": path, "new_text": new, "insert_line": line}))
                }
                _ => Ok(json!({"path": path, "old_text": old, "new_text": new})),
            }
        }
        ("spawn_agent", _) => {
            let Some(task) = text("prompt") else { return Err("an Agent call needs a `prompt` string".to_string()) };
            let system =
                text("system_prompt").or_else(|| input.get("systemPrompt").cloned()).unwrap_or_else(|| "".into());
            Ok(json!({"systemPrompt": system, "task": task}))
        }
        _ => Ok(rewrite.clone()),
    }
}

/// One item of a listed tool with a Claude call's rewrite written back.
fn cline_item(tool: &str, item: &Value, rewrite: &Value) -> std::result::Result<Value, String> {
    let field = |name: &str| rewrite.get(name).filter(|v| v.is_string()).cloned();
    match tool {
        "run_commands" => field("command").ok_or_else(|| "Bash needs a `command` string".to_string()),
        "search_codebase" => field("pattern").ok_or_else(|| "Grep needs a `pattern` string".to_string()),
        "fetch_web_content" => {
            let mut out = item.as_object().cloned().unwrap_or_default();
            for name in ["url", "prompt"] {
                if let Some(value) = field(name) {
                    out.insert(name.into(), value);
                }
            }
            Ok(Value::Object(out))
        }
        "read_files" => {
            let path = field("file_path").ok_or_else(|| "Read needs a `file_path` string".to_string())?;
            let mut out = Map::new();
            out.insert("path".into(), path);
            let offset = rewrite.get("offset").and_then(Value::as_u64);
            let limit = rewrite.get("limit").and_then(Value::as_u64);
            if offset.is_some() || limit.is_some() {
                let start = offset.unwrap_or(1).max(1);
                out.insert("start_line".into(), start.into());
                if let Some(limit) = limit {
                    out.insert("end_line".into(), (start + limit.max(1) - 1).into());
                }
            }
            Ok(Value::Object(out))
        }
        _ => Ok(rewrite.clone()),
    }
}
