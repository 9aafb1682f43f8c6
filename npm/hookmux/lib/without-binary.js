// What the launcher answers when it has no hookmux to run: no package for this machine (musl,
// Windows on arm64, FreeBSD…), the package left out (`--omit=optional`), or a binary that cannot
// start. Hosts read a hook's exit 1 as a non-blocking error and carry on, so every hook that
// `hookmux install` moved behind `hookmux dispatch`, guards among them, would be silently off.
//
// Run as a hook (`hookmux dispatch …`, `hookmux run …`), the launcher reads the event and blocks
// it: exit 2 with the reason on stderr, which every host honours on a tool call (the call is
// denied, and the model is told why) and Claude Code also on a prompt (blocked, the user told).
// On the events where exit 2 means "keep going" (Stop, SubagentStop, Gemini CLI's AfterAgent,
// TeammateIdle) or "refuse the settings change" (ConfigChange), blocking every time would trap
// the session in a loop or in its settings: there the answer is exit 0 with the reason as a
// `systemMessage`, which the user sees. Any other command exits 2 with the reason.

import { readFileSync } from "node:fs";

/** The subcommands a host runs as hooks. */
const HOOK_COMMANDS = new Set(["dispatch", "run"]);

/** Events on which an exit 2 would keep the agent going, or keep a settings change out. */
const NOT_TO_BLOCK = new Set(["Stop", "SubagentStop", "AfterAgent", "TeammateIdle", "ConfigChange"]);

const INSTALL =
  "Install hookmux for this machine: `cargo install hookmux` builds it from source " +
  "(https://github.com/hookmux/hookmux), or, where a package exists, reinstall it with npm " +
  "without --omit=optional. Until then, this hook blocks what it can.";

/** The event's name as the hosts send it, or "" when stdin is no JSON event. */
function eventName(text) {
  try {
    const event = JSON.parse(text);
    const name = event?.hook_event_name ?? event?.hookEventName ?? event?.hookName;
    return typeof name === "string" ? name : "";
  } catch {
    return "";
  }
}

/**
 * The answer without a binary, for these arguments and this stdin; `reason` says what is missing.
 * @returns {{code: number, stdout: string, stderr: string}}
 */
export function answer(args, stdin, reason) {
  const text = `${reason}\n${INSTALL}`;
  if (HOOK_COMMANDS.has(args[0]) && NOT_TO_BLOCK.has(eventName(stdin))) {
    return { code: 0, stdout: `${JSON.stringify({ systemMessage: text })}\n`, stderr: `${text}\n` };
  }
  return { code: 2, stdout: "", stderr: `${text}\n` };
}

/** Answers as `answer` says, reading the event from stdin when run as a hook. */
export function answerWithoutBinary(reason) {
  const args = process.argv.slice(2);
  let stdin = "";
  if (HOOK_COMMANDS.has(args[0])) {
    try {
      stdin = readFileSync(0, "utf8");
    } catch {
      // No readable stdin: no event name, and the hook blocks.
    }
  }
  const { code, stdout, stderr } = answer(args, stdin, reason);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  // Set rather than exit(): Node writes what is pending to a pipe before it exits.
  process.exitCode = code;
}
