#!/usr/bin/env node
// Runs the native hookmux binary of this platform with the same arguments, stdin, stdout and
// stderr, and exits as it did. Without one, it never exits 1, which hosts read as "carry on":
// see ../lib/without-binary.js.

import { spawnSync } from "node:child_process";
import { nativeBinary } from "../lib/binary.js";
import { answerWithoutBinary } from "../lib/without-binary.js";

const binary = nativeBinary();
if (binary instanceof Error) {
  answerWithoutBinary(binary.message);
} else {
  const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
  if (result.error) {
    // Nothing ran, so stdin is still unread: the event is there to answer.
    answerWithoutBinary(`hookmux: cannot run ${binary}: ${result.error.message}`);
  } else if (result.signal) {
    process.kill(process.pid, result.signal);
    process.exitCode = 2; // the signal was ignored here: still not "carry on"
  } else {
    process.exitCode = result.status ?? 2;
  }
}
