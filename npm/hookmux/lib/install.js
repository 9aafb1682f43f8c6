// After `npm install`: puts the native binary where the launcher is, so that a host starting
// `hookmux` on every hook starts hookmux itself rather than Node first (about 65 ms a start).
// Nothing is downloaded: the binary is the one npm already installed in the platform package. On
// Windows, without the platform package, under `--ignore-scripts`, or when anything fails here,
// the launcher stays, and works as before.

import { chmodSync, copyFileSync, linkSync, renameSync, unlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { nativeBinary } from "./binary.js";

const launcher = fileURLToPath(new URL("../bin/hookmux.js", import.meta.url));
const binary = nativeBinary();
if (process.platform !== "win32" && !(binary instanceof Error)) {
  const staged = `${launcher}.native`;
  try {
    try {
      linkSync(binary, staged);
    } catch {
      copyFileSync(binary, staged);
    }
    chmodSync(staged, 0o755);
    renameSync(staged, launcher);
  } catch {
    try {
      unlinkSync(staged);
    } catch {
      // nothing was staged
    }
  }
}
