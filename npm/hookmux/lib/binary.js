// Finds the native hookmux binary: the platform package npm installed among the optional
// dependencies (`@hookmux/cli-<os>-<cpu>`), chosen by npm from its `os`, `cpu` and `libc` fields.
// Nothing is downloaded at install time.

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The platform packages, by `${process.platform}-${process.arch}`. */
export const PLATFORMS = {
  "linux-x64": "@hookmux/cli-linux-x64",
  "linux-arm64": "@hookmux/cli-linux-arm64",
  "darwin-arm64": "@hookmux/cli-darwin-arm64",
  "darwin-x64": "@hookmux/cli-darwin-x64",
  "win32-x64": "@hookmux/cli-win32-x64",
};

/** The binary's file name in its package's `bin/`. */
export function binaryName(platform = process.platform) {
  return platform === "win32" ? "hookmux.exe" : "hookmux";
}

/** Whether this Node runs on a Linux C library other than glibc (musl, as on Alpine). */
function linuxWithoutGlibc() {
  if (process.platform !== "linux") return false;
  const header = process.report?.getReport?.().header;
  return header !== undefined && !header.glibcVersionRuntime;
}

/**
 * The path of the native binary, or an Error that says what is missing.
 * @returns {string | Error}
 */
export function nativeBinary() {
  const key = `${process.platform}-${process.arch}`;
  const name = PLATFORMS[key];
  if (!name) {
    return new Error(
      `hookmux: no prebuilt binary for ${key} (there are ${Object.keys(PLATFORMS).join(", ")})`,
    );
  }
  if (linuxWithoutGlibc()) {
    return new Error(`hookmux: no prebuilt binary for ${key} without glibc (the ${name} binary needs glibc 2.17 or later)`);
  }
  try {
    return require.resolve(`${name}/bin/${binaryName()}`);
  } catch {
    return new Error(
      `hookmux: the package ${name} that holds the binary for ${key} is not installed ` +
        "(npm leaves it out under --omit=optional or --no-optional)",
    );
  }
}
