// The OpenCode plugin (opencode/hookmux.js), starting this package's native binary unless
// $HOOKMUX_BIN names another. List it in opencode.json: { "plugin": ["hookmux"] }.

import { HookmuxPlugin as plugin } from "./opencode/hookmux.js";
import { nativeBinary } from "./lib/binary.js";

/** @param {Parameters<typeof plugin>[0]} ctx */
export const HookmuxPlugin = async (ctx) => {
  if (process.env.HOOKMUX_BIN) {
    return plugin(ctx);
  }
  const binary = nativeBinary();
  if (binary instanceof Error) {
    // The plugin falls back to `hookmux` on PATH, and says so when there is none.
    return plugin(ctx);
  }
  // The plugin reads HOOKMUX_BIN once, before its first await: set it only for that moment.
  process.env.HOOKMUX_BIN = binary;
  try {
    return plugin(ctx);
  } finally {
    delete process.env.HOOKMUX_BIN;
  }
};

export default HookmuxPlugin;
