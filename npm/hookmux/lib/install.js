// After `npm install`: puts the native binary where the launcher is, so that a host starting
// `hookmux` on every hook starts hookmux itself rather than Node first (about 65 ms a start).
// Nothing is downloaded: the binary is the one npm already installed in the platform package.
//
// On Linux and macOS the binary replaces bin/hookmux.js, which npm's link on PATH points at. On
// Windows npm runs a package's bin through three shims it writes into the bin folder (before this
// step runs): `hookmux.cmd` for cmd, `hookmux.ps1` for PowerShell and an extensionless `hookmux`
// for Git Bash, which is what Claude Code runs hooks with. For bin/hookmux.js each starts Node on
// it. So on Windows the binary goes beside the launcher as bin/hookmux.exe, and each shim of ours
// is rewritten to start it directly, in the form npm itself writes for a bin that is a native
// program; `npm uninstall` removes them as before, and `npm rebuild` writes Node's again and runs
// this step again. Without the platform package, under `--ignore-scripts`, or when anything fails
// here, the launcher stays, and works as before.

import { chmodSync, copyFileSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { nativeBinary } from "./binary.js";

const launcher = fileURLToPath(new URL("../bin/hookmux.js", import.meta.url));
const packageDir = dirname(dirname(launcher));

/** Puts a copy of `binary` (a hard link where it can) at `target`, through a staged file. */
function place(binary, target) {
  const staged = `${target}.native`;
  try {
    try {
      linkSync(binary, staged);
    } catch {
      copyFileSync(binary, staged);
    }
    chmodSync(staged, 0o755);
    renameSync(staged, target);
    return true;
  } catch {
    try {
      unlinkSync(staged);
    } catch {
      // nothing was staged
    }
    return false;
  }
}

/** npm's shims for our launcher: the bin folder of a local install, and of a global one on Windows. */
function ourShims() {
  const folders = [join(packageDir, "..", ".bin"), join(packageDir, "..", "..")];
  const ours = /hookmux[\\/]bin[\\/]hookmux\.js/;
  const found = [];
  for (const folder of folders) {
    for (const name of ["hookmux", "hookmux.cmd", "hookmux.ps1"]) {
      const file = join(folder, name);
      try {
        if (ours.test(readFileSync(file, "utf8"))) found.push(file);
      } catch {
        // not there
      }
    }
  }
  return found;
}

/** A shim of npm's no-shebang form that starts `exe`, for the kind of shim `file` is. */
function shimFor(file, exe) {
  const target = relative(dirname(file), exe).split(sep).join("/");
  if (file.endsWith(".cmd")) {
    const windowsTarget = target.replaceAll("/", "\\");
    return `@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n"%dp0%\\${windowsTarget}" %*\r\n`;
  }
  if (file.endsWith(".ps1")) {
    return (
      "#!/usr/bin/env pwsh\n" +
      "$basedir=Split-Path $MyInvocation.MyCommand.Definition -Parent\n" +
      "# Support pipeline input\n" +
      "if ($MyInvocation.ExpectingInput) {\n" +
      `  $input | & "$basedir/${target}" $args\n` +
      "} else {\n" +
      `  & "$basedir/${target}" $args\n` +
      "}\n" +
      "exit $LASTEXITCODE\n"
    );
  }
  // No dirname or sed as npm's has: each process a shim starts costs milliseconds under Git Bash.
  return `#!/bin/sh\ncase $0 in */*) basedir=\${0%/*} ;; *) basedir=. ;; esac\nexec "$basedir/${target}" "$@"\n`;
}

function rewrite(file, text) {
  const staged = `${file}.hookmux`;
  try {
    writeFileSync(staged, text);
    chmodSync(staged, 0o755);
    renameSync(staged, file);
  } catch {
    try {
      unlinkSync(staged);
    } catch {
      // nothing was staged
    }
  }
}

const binary = nativeBinary();
if (!(binary instanceof Error)) {
  if (process.platform === "win32") {
    const exe = join(dirname(launcher), "hookmux.exe");
    if (place(binary, exe)) {
      for (const shim of ourShims()) rewrite(shim, shimFor(shim, exe));
    }
  } else {
    place(binary, launcher);
  }
}
