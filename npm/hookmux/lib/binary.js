// Finds the native hookmux binary: the platform package npm installed among the optional
// dependencies (`@hookmux/cli-<os>-<cpu>`), chosen by npm from its `os` and `cpu` fields. Nothing
// is downloaded at install time.

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The platform packages, by `${process.platform}-${process.arch}`. */
export const PLATFORMS = {
  "linux-x64": "@hookmux/cli-linux-x64",
  "linux-arm64": "@hookmux/cli-linux-arm64",
  "darwin-arm64": "@hookmux/cli-darwin-arm64",
  "darwin-x64": "@hookmux/cli-darwin-x64",
};

/**
 * The path of the native binary, or an Error that says what to do.
 * @returns {string | Error}
 */
export function nativeBinary() {
  const key = `${process.platform}-${process.arch}`;
  const name = PLATFORMS[key];
  if (!name) {
    return new Error(
      `hookmux: no prebuilt binary for ${key} (there are ${Object.keys(PLATFORMS).join(", ")}); ` +
        "build it from source instead: cargo install hookmux",
    );
  }
  try {
    return require.resolve(`${name}/bin/hookmux`);
  } catch {
    return new Error(
      `hookmux: the package ${name} that holds the binary for ${key} is not installed; ` +
        "reinstall hookmux without --omit=optional or --no-optional (npm install hookmux)",
    );
  }
}
