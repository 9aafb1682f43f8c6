// @ts-check
// The plugin end to end: each OpenCode hook it wires, through the real `hookmux` binary
// ($HOOKMUX_BIN) and real hook processes, with a stand-in for OpenCode's SDK client. Then a port
// of oh-my-opencode's test cases that describe behaviour Claude Code shares, with Claude Code's
// answer where oh-my-opencode deviates from it.
//
//   HOOKMUX_BIN=target/release/hookmux node --test integrations/opencode/

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookmuxPlugin } from "./hookmux.js";

const root = mkdtempSync(join(tmpdir(), "hookmux-opencode-"));
process.env.HOME = join(root, "home");
process.env.XDG_STATE_HOME = join(root, "state");
delete process.env.CLAUDE_CONFIG_DIR;
mkdirSync(process.env.HOME, { recursive: true });
let counter = 0;

/** A fake OpenCode client that records what the plugin asks of it. */
function fakeClient({ parentID = undefined, getFails = 0 } = {}) {
  const calls = { prompt: [], abort: [], get: 0, log: [], toast: [] };
  let failures = getFails;
  const client = {
    session: {
      prompt: async (req) => {
        calls.prompt.push(req);
        return { data: { info: { time: { created: Date.now() + 1 } } } };
      },
      abort: async (req) => void calls.abort.push(req),
      get: async () => {
        calls.get += 1;
        if (failures-- > 0) throw new Error("lookup failed");
        return { data: { parentID } };
      },
      messages: async () => ({ data: [{ info: { role: "assistant" }, parts: [{ type: "text", text: "FINAL" }] }] }),
    },
    app: { log: async (req) => void calls.log.push(req.body.message) },
    tui: { showToast: async (req) => void calls.toast.push(req.body.message) },
  };
  return { client, calls };
}

/**
 * A project with these Claude hooks in `.claude/settings.json`, the plugin loaded on it, and a
 * fresh $DUMP for the hooks to write to.
 */
async function project(hooks, clientOptions) {
  const dir = join(root, `p${++counter}`);
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks }));
  const dump = join(dir, "dump");
  mkdirSync(dump);
  process.env.DUMP = dump;
  const { client, calls } = fakeClient(clientOptions);
  const plugin = await HookmuxPlugin({ client, directory: dir });
  const read = (name) => (existsSync(join(dump, name)) ? readFileSync(join(dump, name), "utf8") : "");
  return { dir, plugin, calls, read, ran: () => read("ran.txt").split(/\s+/).filter(Boolean).sort(), session: `ses_${counter}` };
}

const cmd = (command, extra = {}) => ({ type: "command", command, ...extra });
const json = (object) => `printf '%s' '${JSON.stringify(object)}'`;
const ran = (name) => `echo ${name} >> "$DUMP/ran.txt"`;
const before = (p, tool, args, callID = "call_1") => {
  const output = { args };
  return p.plugin["tool.execute.before"]({ tool, sessionID: p.session, callID }, output).then(() => output);
};
const after = (p, tool, args, text, callID = "call_1") => {
  const output = { title: tool, output: text, metadata: {} };
  return p.plugin["tool.execute.after"]({ tool, sessionID: p.session, callID, args }, output).then(() => output);
};
const message = (p, ...texts) => {
  const output = {
    message: { id: `msg_${counter}` },
    parts: texts.map((t) => (typeof t === "string" ? { type: "text", text: t, id: "prt_user" } : t)),
  };
  return p.plugin["chat.message"]({ sessionID: p.session }, output).then(() => output);
};
const idle = (p, id = `evt_${Math.random()}`) => p.plugin.event({ event: { id, type: "session.idle", properties: { sessionID: p.session } } });
const settle = (p) => p.plugin.dispose();

// ----- each OpenCode hook, end to end -----

test("tool.execute.before: an exit 2 blocks the call with the hook's own words", async () => {
  const p = await project({ PreToolUse: [{ matcher: "Bash", hooks: [cmd(`${ran("h1")}; echo 'blocked by policy X' >&2; exit 2`)] }] });
  await assert.rejects(before(p, "bash", { command: "rm -rf build" }), /blocked by policy X/);
  assert.deepEqual(p.ran(), ["h1"]);
});

test("tool.execute.before: updatedInput rewrites the arguments in place, in OpenCode's names", async () => {
  const rewrite = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { file_path: "/tmp/other.md", content: "x" } } };
  const p = await project({ PreToolUse: [{ matcher: "Write", hooks: [cmd(json(rewrite))] }] });
  const args = { filePath: "/tmp/a.md", content: "x" };
  const output = await before(p, "write", args);
  assert.equal(output.args, args, "the very object OpenCode passed");
  assert.deepEqual(args, { filePath: "/tmp/other.md", content: "x" });
});

test("tool.execute.before: apply_patch (GPT models' edit tool) is checked file by file, as Edit and Write", async () => {
  const p = await project({ PreToolUse: [{ matcher: "Edit|Write", hooks: [cmd(ran("guard")), cmd("hookmux run protect-paths")] }] });
  const patchText = "*** Begin Patch\n*** Update File: notes.txt\n*** Move to: .env\n@@\n-a\n+b\n*** End Patch";
  await assert.rejects(before(p, "apply_patch", { patchText }), /protect-paths: editing `\.env` is not allowed/);
  // The guard ran for the file the patch leaves and for the one it lands on.
  assert.deepEqual(p.ran(), ["guard", "guard"]);
  const harmless = { patchText: "*** Begin Patch\n*** Add File: notes2.txt\n+n\n*** End Patch" };
  const output = await before(p, "apply_patch", harmless);
  assert.deepEqual(output.args, harmless, "a patch no hook objects to runs as it was");
});

test("tool.execute.before: a rewrite of one file of a patch cannot be applied; the patch runs as it was and the user is told", async () => {
  const rewrite = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { file_path: "/x", old_string: "a", new_string: "c" } } };
  const p = await project({ PreToolUse: [{ matcher: "Edit", hooks: [cmd(json(rewrite))] }] });
  const args = { patchText: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch" };
  const output = await before(p, "apply_patch", { ...args });
  assert.deepEqual(output.args, args);
  assert.ok(p.calls.log.some((m) => m.includes("updatedInput was not applied")), JSON.stringify(p.calls.log));
});

test("tool.execute.before: context reaches the model in the tool's result", async () => {
  const context = { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "CTX-PRE-123" } };
  const p = await project({ PreToolUse: [{ matcher: "Bash", hooks: [cmd(json(context))] }] });
  await before(p, "bash", { command: "echo hi" });
  const output = await after(p, "bash", { command: "echo hi" }, "hi\n");
  assert.equal(output.output, "hi\n\n\nPreToolUse:Bash hook additional context: CTX-PRE-123");
});

test("tool.execute.before: continue: false lets the tool run, then ends the turn", async () => {
  const p = await project({ PreToolUse: [{ hooks: [cmd(json({ continue: false, stopReason: "halt everything" }))] }] });
  await before(p, "bash", { command: "echo hi" });
  const output = await after(p, "bash", { command: "echo hi" }, "hi\n");
  assert.equal(output.output, "hi\n");
  // The model is not asked again; the reason is the user's, not in the error.
  await assert.rejects(p.plugin["chat.params"]({ sessionID: p.session, message: { id: "m" } }, {}), (err) => !String(err).includes("halt"));
  assert.ok(p.calls.log.includes("halt everything"));
  await p.plugin["chat.params"]({ sessionID: p.session, message: { id: "m2" } }, {});
});

test("tool.execute.after: an exit 2 keeps the output and adds the reason", async () => {
  const p = await project({ PostToolUse: [{ matcher: "Bash", hooks: [cmd(`${ran("p")}; echo 'post complaint' >&2; exit 2`)] }] });
  const output = await after(p, "bash", { command: "echo original-command" }, "original-command\n");
  assert.match(output.output, /^original-command\n\n\nPostToolUse:Bash hook blocking error: \[.*\]: post complaint$/);
  assert.deepEqual(p.ran(), ["p"]);
});

test("tool.execute.after: without arguments, the hook gets the input PreToolUse had", async () => {
  const p = await project({ PostToolUse: [{ hooks: [cmd(`cat > "$DUMP/post.json"`)] }] });
  await before(p, "edit", { filePath: "/p/a.rs", oldString: "a", newString: "b" }, "call_9");
  await after(p, "edit", undefined, "done", "call_9");
  const event = JSON.parse(p.read("post.json"));
  assert.deepEqual(event.tool_input, { file_path: "/p/a.rs", old_string: "a", new_string: "b" });
  assert.equal(event.tool_name, "Edit");
  assert.equal(event.tool_use_id, "call_9");
});

test("chat.message: plain stdout is context for the model, as a synthetic part", async () => {
  const p = await project({ UserPromptSubmit: [{ hooks: [cmd("echo 'UPS-ONE'"), cmd("echo 'UPS-TWO'")] }] });
  const output = await message(p, "please run the probe");
  assert.equal(output.parts.length, 2);
  assert.equal(output.parts[1].text, "UPS-ONE\nUPS-TWO");
  assert.equal(output.parts[1].synthetic, true);
  assert.match(output.parts[1].id, /^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
});

test("chat.message: an exit 2 blocks the prompt before the model is asked", async () => {
  const p = await project({ UserPromptSubmit: [{ hooks: [cmd(`${ran("u")}; echo 'prompt rejected' >&2; exit 2`)] }] });
  const output = await message(p, "please run the probe");
  assert.equal(output.parts[0].ignored, true, "the blocked prompt never reaches the model");
  await assert.rejects(
    p.plugin["chat.params"]({ sessionID: p.session, message: { id: output.message.id } }, {}),
    /UserPromptSubmit operation blocked by hook:\n\[.*\]: prompt rejected/,
  );
  // No Stop hooks after a blocked prompt, as in Claude Code.
  await idle(p);
  await settle(p);
  assert.deepEqual(p.ran(), ["u"]);
});

test("session.created and the system prompt: SessionStart context, asked for once", async () => {
  const p = await project({ SessionStart: [{ matcher: "startup", hooks: [cmd(`${ran("s")}; echo 'SS-PLAIN-CTX'`)] }] });
  await p.plugin.event({ event: { id: "e1", type: "session.created", properties: { sessionID: p.session, info: { id: p.session } } } });
  for (let i = 0; i < 2; i++) {
    const output = { system: ["base"] };
    await p.plugin["experimental.chat.system.transform"]({ sessionID: p.session }, output);
    assert.deepEqual(output.system, ["base", "SS-PLAIN-CTX"]);
  }
  assert.deepEqual(p.ran(), ["s"]);
});

test("session.idle: a Stop block continues the turn, and stop_hook_active is set the second time", async () => {
  const p = await project({
    Stop: [{ hooks: [cmd(`${ran("st")}; if grep -q '"stop_hook_active":true' ; then exit 0; fi; ${json({ decision: "block", reason: "keep going: run tests" })}`)] }],
  });
  await idle(p);
  await settle(p);
  assert.deepEqual(p.calls.prompt.map((r) => r.body.parts[0].text), ["keep going: run tests"]);
  // The continuation is not a prompt of the user's: no UserPromptSubmit, and the state stays.
  await message(p, "keep going: run tests");
  await idle(p);
  await settle(p);
  assert.equal(p.calls.prompt.length, 1);
  assert.deepEqual(p.ran(), ["st", "st"]);
});

test("session.idle: Stop context continues the turn too", async () => {
  const context = { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "STOP-CTX run the linter" } };
  const p = await project({ Stop: [{ hooks: [cmd(`if grep -q '"stop_hook_active":true' ; then exit 0; fi; ${json(context)}`)] }] });
  await idle(p);
  await settle(p);
  assert.deepEqual(p.calls.prompt.map((r) => r.body.parts[0].text), ["STOP-CTX run the linter"]);
});

test("session.idle: Claude Code's cap of 8 Stop blocks in a row", async () => {
  const p = await project({ Stop: [{ hooks: [cmd(`${ran("st")}; ${json({ decision: "block", reason: "never done" })}`)] }] });
  for (let i = 0; i < 9; i++) {
    await idle(p);
    await settle(p);
    await message(p, "never done");
  }
  assert.equal(p.calls.prompt.length, 8);
  assert.equal(p.ran().length, 9);
  assert.ok(p.calls.log.some((m) => m.includes("8 times in a row")));
});

test("session.idle: the same bus event told to two plugin instances runs Stop once", async () => {
  const p = await project({ Stop: [{ hooks: [cmd(ran("st"))] }] });
  const second = await HookmuxPlugin({ client: fakeClient().client, directory: p.dir });
  await Promise.all([idle(p, "evt_same"), second.event({ event: { id: "evt_same", type: "session.idle", properties: { sessionID: p.session } } })]);
  await settle(p);
  assert.deepEqual(p.ran(), ["st"]);
});

test("session.idle of a child session is SubagentStop", async () => {
  const p = await project({ SubagentStop: [{ hooks: [cmd(`cat > "$DUMP/sub.json"`)] }], Stop: [{ hooks: [cmd(ran("st"))] }] }, { parentID: "ses_parent" });
  await idle(p);
  await settle(p);
  const event = JSON.parse(p.read("sub.json"));
  assert.equal(event.hook_event_name, "SubagentStop");
  assert.equal(event.last_assistant_message, "FINAL");
  assert.deepEqual(p.ran(), []);
});

test("experimental.session.compacting: PreCompact output joins the compaction prompt", async () => {
  const p = await project({ PreCompact: [{ matcher: "auto", hooks: [cmd("echo 'keep the API notes'")] }] });
  const output = { context: [] };
  await p.plugin["experimental.session.compacting"]({ sessionID: p.session }, output);
  assert.deepEqual(output.context, ["keep the API notes"]);
});

test("command.execute.before: UserPromptExpansion can add context", async () => {
  const context = { hookSpecificOutput: { hookEventName: "UserPromptExpansion", additionalContext: "EXPANDED" } };
  const p = await project({ UserPromptExpansion: [{ matcher: "review", hooks: [cmd(json(context))] }] });
  const output = { parts: [] };
  await p.plugin["command.execute.before"]({ command: "review", sessionID: p.session, arguments: "" }, output);
  assert.deepEqual(output.parts, [{ type: "text", text: "EXPANDED", synthetic: true }]);
});

test("config: tools of a known MCP server match mcp__server__ matchers", async () => {
  const p = await project({ PreToolUse: [{ matcher: "mcp__github__.*", hooks: [cmd(`${ran("m")}; exit 2`)] }] });
  await before(p, "github_create_issue", { title: "t" }); // server unknown: no match
  await p.plugin.config({ mcp: { github: { type: "remote" } } });
  await assert.rejects(before(p, "github_create_issue", { title: "t" }));
  assert.deepEqual(p.ran(), ["m"]);
});

test("a transcript_path hooks can read", async () => {
  const p = await project({ PostToolUse: [{ hooks: [cmd(`jq -r .transcript_path > "$DUMP/path" 2>/dev/null || sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p' > "$DUMP/path"`)] }] });
  await before(p, "bash", { command: "echo hi" });
  await after(p, "bash", { command: "echo hi" }, "hi\n");
  const transcript = readFileSync(p.read("path").trim(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(transcript.map((l) => l.type), ["assistant", "user"]);
  assert.equal(transcript[0].message.content[0].name, "Bash");
});

test("no hookmux binary: hooks do not throw, and the user is told", async () => {
  const saved = process.env.HOOKMUX_BIN;
  process.env.HOOKMUX_BIN = join(root, "no-such-hookmux");
  try {
    const { client, calls } = fakeClient();
    const plugin = await HookmuxPlugin({ client, directory: root });
    const output = { args: { command: "ls" } };
    await plugin["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output);
    assert.deepEqual(output.args, { command: "ls" });
    assert.match(calls.log[0], /cannot run .*no-such-hookmux.*HOOKMUX_BIN/);
  } finally {
    process.env.HOOKMUX_BIN = saved;
  }
});

// ----- Claude Code's rules inside -----

test("matchers are Claude Code's: exact and case-sensitive, or a regular expression", async () => {
  const p = await project({
    PreToolUse: [
      { matcher: "bash", hooks: [cmd(ran("lower"))] },
      { matcher: "Ba.*", hooks: [cmd(ran("regex"))] },
      { matcher: "Bash,Write", hooks: [cmd(ran("list"))] },
      { matcher: "^Bash$", hooks: [cmd(ran("anchored"))] },
      { matcher: "Edit", hooks: [cmd(ran("other"))] },
    ],
  });
  await before(p, "bash", { command: "ls" });
  assert.deepEqual(p.ran(), ["anchored", "list", "regex"]);
});

test("if rules, dedup and timeouts are honoured", async () => {
  const p = await project({
    PreToolUse: [
      { matcher: "Bash", hooks: [cmd(ran("git"), { if: "Bash(git *)" }), cmd(ran("echo"), { if: "Bash(echo *)" }), cmd(ran("d"))] },
      { matcher: "*", hooks: [cmd(ran("d")), cmd(`${ran("slow")}; sleep 5; exit 2`, { timeout: 1 })] },
    ],
  });
  await before(p, "bash", { command: "echo original-command" });
  assert.deepEqual(p.ran(), ["d", "echo", "slow"]);
});

test("hooks run in parallel", async () => {
  const p = await project({
    PreToolUse: [{ hooks: [cmd(`echo a-start >> "$DUMP/order"; sleep 0.5; echo a-end >> "$DUMP/order"`), cmd(`echo b-start >> "$DUMP/order"; sleep 0.5; echo b-end >> "$DUMP/order"`)] }],
  });
  await before(p, "bash", { command: "ls" });
  const order = p.read("order").trim().split("\n");
  assert.deepEqual(order.slice(0, 2).sort(), ["a-start", "b-start"]);
});

test("hooks get OpenCode's environment and CLAUDE_PROJECT_DIR", async () => {
  process.env.HOOKMUX_TEST_VAR = "from-opencode";
  const p = await project({ PreToolUse: [{ hooks: [cmd(`echo "$HOOKMUX_TEST_VAR $CLAUDE_PROJECT_DIR" > "$DUMP/env"`)] }] });
  await before(p, "bash", { command: "ls" });
  assert.equal(p.read("env").trim(), `from-opencode ${p.dir}`);
});

// ----- oh-my-opencode's test cases, where Claude Code behaves the same -----
// (packages/omo-opencode/src/hooks/claude-code-hooks/*.test.ts; the number is theirs.)

test("pre-tool-use 1: no hooks, no decision", async () => {
  const p = await project({});
  const output = await before(p, "write", { filePath: "/tmp/a", content: "x" });
  assert.deepEqual(output.args, { filePath: "/tmp/a", content: "x" });
});

test("pre-tool-use 2: a Bash matcher does not match Write", async () => {
  const p = await project({ PreToolUse: [{ matcher: "Bash", hooks: [cmd(`${ran("h")}; exit 2`)] }] });
  await before(p, "write", { filePath: "/tmp/a", content: "x" });
  assert.deepEqual(p.ran(), []);
});

test("pre-tool-use 5: exit 1 is a non-blocking error (oh-my-opencode asks; Claude Code runs the tool)", async () => {
  const p = await project({ PreToolUse: [{ hooks: [cmd("echo 'needs confirmation' >&2; exit 1")] }] });
  const output = await before(p, "write", { filePath: "/tmp/a", content: "x" });
  assert.deepEqual(output.args, { filePath: "/tmp/a", content: "x" });
  assert.match(p.calls.log.join("\n"), /needs confirmation/);
});

test("pre-tool-use 6, 7, 9: an allow does not stop the other hooks, a later exit 2 still denies", async () => {
  const p = await project({
    PreToolUse: [
      { matcher: "*", hooks: [cmd(`${ran("first")}; ${json({ decision: "approve" })}`)] },
      { matcher: "Edit|Write", hooks: [cmd(`${ran("second")}; echo 'BUDGET EXCEEDED' >&2; exit 2`)] },
    ],
  });
  await assert.rejects(before(p, "write", { filePath: "/tmp/a", content: "x" }), /BUDGET EXCEEDED/);
  assert.deepEqual(p.ran(), ["first", "second"]);
});

test("pre-tool-use 8: an exit 2 denies, and (in parallel, as Claude Code runs them) every hook ran", async () => {
  const p = await project({ PreToolUse: [{ hooks: [cmd(`${ran("a")}; echo no >&2; exit 2`), cmd(ran("b"))] }] });
  await assert.rejects(before(p, "write", { filePath: "/tmp/a", content: "x" }), /no/);
  assert.deepEqual(p.ran(), ["a", "b"]);
});

test("pre-tool-use 11: systemMessage goes to the user", async () => {
  const p = await project({ PreToolUse: [{ hooks: [cmd(json({ suppressOutput: true, systemMessage: "Budget warning: approaching limit" }))] }] });
  await before(p, "write", { filePath: "/tmp/a", content: "x" });
  assert.ok(p.calls.log.includes("Budget warning: approaching limit"));
});

test("pre-tool-use 12: a rewrite next to a deny is dropped, the deny stands", async () => {
  const rewrite = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { file_path: "/tmp/modified.md" } } };
  const p = await project({ PreToolUse: [{ hooks: [cmd(json(rewrite)), cmd("echo blocked >&2; exit 2")] }] });
  const args = { filePath: "/tmp/a.md", content: "x" };
  await assert.rejects(before(p, "write", args), /blocked/);
  assert.deepEqual(args, { filePath: "/tmp/a.md", content: "x" });
});

test("post-tool-use 1: additionalContext reaches the tool's result", async () => {
  const context = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "First line\n  indented second line" } };
  const p = await project({ PostToolUse: [{ hooks: [cmd(json(context))] }] });
  const output = await after(p, "bash", { command: "ls" }, "out");
  assert.equal(output.output, "out\n\nPostToolUse:Bash hook additional context: First line\n  indented second line");
});

test("stop 3, 4, 6: no Stop hooks no block; exit 2 and a JSON block continue with the reason", async () => {
  const none = await project({ Stop: [] });
  await idle(none);
  await settle(none);
  assert.equal(none.calls.prompt.length, 0);
  const exit2 = await project({ Stop: [{ hooks: [cmd("echo 'blocked reason' >&2; exit 2")] }] });
  await idle(exit2);
  await settle(exit2);
  assert.match(exit2.calls.prompt[0].body.parts[0].text, /blocked reason/);
  const jsonBlock = await project({ Stop: [{ hooks: [cmd(json({ decision: "block", reason: "must fix" }))] }] });
  await idle(jsonBlock);
  await settle(jsonBlock);
  assert.equal(jsonBlock.calls.prompt[0].body.parts[0].text, "must fix");
});

test("stop 7, 10: suppressOutput or plain text does not block, and every hook runs", async () => {
  const p = await project({ Stop: [{ hooks: [cmd(`${ran("a")}; ${json({ suppressOutput: true })}`), cmd(`${ran("b")}; echo 'not json'`)] }] });
  await idle(p);
  await settle(p);
  assert.equal(p.calls.prompt.length, 0);
  assert.deepEqual(p.ran(), ["a", "b"]);
});

test("user-prompt-submit 1, 6: no hooks no context; a synthetic-only message runs no hooks", async () => {
  const p = await project({ UserPromptSubmit: [{ hooks: [cmd(`${ran("u")}; echo ctx`)] }] });
  const output = await message(p, { type: "text", text: "reminder", synthetic: true });
  assert.equal(output.parts.length, 1);
  assert.deepEqual(p.ran(), []);
  const empty = await project({});
  assert.equal((await message(empty, "hi")).parts.length, 1);
});

test("pattern-matcher: a `|` list with spaces, exact per name (case-sensitive in Claude Code)", async () => {
  const p = await project({ PreToolUse: [{ matcher: "Bash | Edit | Write", hooks: [cmd(`echo "$(cat | grep -o '"tool_name":"[A-Za-z]*"')" >> "$DUMP/seen"`)] }] });
  for (const tool of ["bash", "edit", "write", "read"]) await before(p, tool, {});
  assert.deepEqual(p.read("seen").trim().split("\n"), ['"tool_name":"Bash"', '"tool_name":"Edit"', '"tool_name":"Write"']);
});

test("session-event-handler 3 and retry 1: the parent lookup is kept, and retried when it failed", async () => {
  const kept = await project({ Stop: [{ hooks: [cmd(ran("st"))] }] });
  await idle(kept);
  await idle(kept);
  await settle(kept);
  assert.equal(kept.calls.get, 1);
  const retried = await project({ Stop: [{ hooks: [cmd(ran("st"))] }] }, { getFails: 1 });
  await idle(retried);
  await idle(retried);
  await settle(retried);
  assert.equal(retried.calls.get, 2);
  assert.deepEqual(retried.ran(), ["st", "st"], "a failed lookup still runs Stop");
});

test("a session first met when the model is asked is a resumed one", async () => {
  const p = await project({ SessionStart: [{ matcher: "resume", hooks: [cmd("echo 'RESUMED'")] }] });
  const output = { system: [] };
  await p.plugin["experimental.chat.system.transform"]({ sessionID: p.session }, output);
  assert.deepEqual(output.system, ["RESUMED"]);
});

test("tool.execute.after: a shell command that exits non-zero runs PostToolUseFailure hooks, as in Claude Code", async () => {
  const context = { hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "FAIL-CTX" } };
  const p = await project({
    PostToolUseFailure: [{ matcher: "Bash", hooks: [cmd(`${ran("f")}; ${json(context)}`)] }],
    PostToolUse: [{ matcher: "Bash", hooks: [cmd(ran("p"))] }],
  });
  const output = { title: "exit 3", output: "(no output)", metadata: { exit: 3 } };
  await p.plugin["tool.execute.after"]({ tool: "bash", sessionID: p.session, callID: "c", args: { command: "exit 3" } }, output);
  assert.equal(output.output, "(no output)\n\nPostToolUseFailure:Bash hook additional context: FAIL-CTX");
  assert.deepEqual(p.ran(), ["f"]);
});

test("session.compacted: PostCompact, then SessionStart again with source compact", async () => {
  const p = await project({
    PostCompact: [{ hooks: [cmd(ran("post"))] }],
    SessionStart: [
      { matcher: "startup", hooks: [cmd("echo 'FRESH'")] },
      { matcher: "compact", hooks: [cmd(`${ran("again")}; echo 'AFTER-COMPACT'`)] },
    ],
  });
  await p.plugin.event({ event: { id: "c1", type: "session.created", properties: { sessionID: p.session, info: { id: p.session } } } });
  await p.plugin.event({ event: { id: "c2", type: "session.compacted", properties: { sessionID: p.session } } });
  await settle(p);
  const output = { system: [] };
  await p.plugin["experimental.chat.system.transform"]({ sessionID: p.session }, output);
  assert.deepEqual(output.system, ["AFTER-COMPACT"]);
  assert.deepEqual(p.ran(), ["again", "post"]);
});

test("session.deleted: SessionEnd, with reason other", async () => {
  const p = await project({ SessionEnd: [{ hooks: [cmd(`grep -o '"reason":"[a-z]*"' > "$DUMP/end"`)] }] });
  await p.plugin.event({ event: { id: "d1", type: "session.deleted", properties: { sessionID: p.session, info: { id: p.session } } } });
  await settle(p);
  assert.equal(p.read("end").trim(), '"reason":"other"');
});
