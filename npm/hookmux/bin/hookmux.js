#!/usr/bin/env node
// Runs the native hookmux binary of this platform with the same arguments, stdin, stdout and
// stderr, and exits as it did.

import { spawnSync } from "node:child_process";
import { nativeBinary } from "../lib/binary.js";

const binary = nativeBinary();
if (binary instanceof Error) {
  process.stderr.write(`${binary.message}\n`);
  process.exit(1);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`hookmux: cannot run ${binary}: ${result.error.message}\n`);
  process.exit(1);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
