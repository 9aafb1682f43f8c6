// @ts-check
/**
 * hookmux for OpenCode: your Claude Code hooks (the `hooks` of your `settings.json` files) run
 * under OpenCode with Claude Code's semantics.
 *
 * Each OpenCode hook wired below is handed to `hookmux dispatch --host opencode` as one JSON
 * object ({ hook, input, output, directory, … }); hookmux maps it to the Claude event, runs the
 * matching Claude hooks (matchers, `if`, dedup, parallel runs, timeouts) and answers with one
 * JSON object that this plugin applies: block with the reason, replace the arguments, add text
 * to the tool's output, add context for the model, continue after Stop, add compaction context.
 *
 * The binary is `$HOOKMUX_BIN`, else `hookmux` on PATH. No dependencies: OpenCode (Bun) and
 * Node's test runner both load this file as it is.
 *
 * Install: copy this file (only this file) to `.opencode/plugins/` in a project, or to
 * `~/.config/opencode/plugins/` for every project.
 */

import { spawn } from "node:child_process";

/** Claude Code stops honouring Stop blocks after this many in a row. */
const STOP_BLOCK_CAP = 8;

/**
 * What `hookmux dispatch --host opencode` answers. Every field is optional.
 * @typedef {object} Answer
 * @property {string} [hookEventName] the Claude event the hook was mapped to
 * @property {string} [block] refuse the tool call, prompt or command with this text
 * @property {Record<string, unknown>} [args] the tool's arguments to use instead
 * @property {string} [context] text for the model
 * @property {string} [appendOutput] text to add to the tool's output
 * @property {string} [replaceOutput] the tool's output to use instead
 * @property {string} [continuePrompt] a Stop hook's reason to carry on: sent as a new prompt
 * @property {string[]} [compactionContext] strings for the compaction prompt
 * @property {string} [stop] a hook said `continue: false`: end the turn
 * @property {string} [systemMessage] for the user, never the model
 */

/**
 * What this plugin keeps per session.
 * @typedef {object} SessionState
 * @property {string | null | undefined} parentID a child (subagent) session's parent; null for a main
 *   session, undefined while unknown
 * @property {Promise<string | undefined> | undefined} start SessionStart's context, once asked for
 * @property {boolean} stopActive the session is continuing because of a Stop hook
 * @property {number} stopBlocks Stop blocks in a row
 * @property {boolean} ended the last turn ended in an error or a blocked prompt: no Stop hooks
 * @property {Map<string, string>} blockedPrompts message id → why its prompt was blocked
 * @property {Map<string, string>} toolContext call id → PreToolUse context for the tool's output
 * @property {string | undefined} stopTurn a hook's `continue: false` reason, applied after the tool
 * @property {boolean} stopNow the turn ends before the model is asked again
 * @property {Set<string>} continuations texts this plugin sent to continue after Stop
 */

/**
 * The subset of OpenCode's plugin input this plugin uses.
 * @typedef {object} PluginInput
 * @property {any} client the OpenCode SDK client
 * @property {string} directory the project folder
 */

/**
 * Per-session state lives in the module, not in one plugin instance: OpenCode may load the plugin
 * twice for one project (`opencode run` does while it shuts down), and both instances are told
 * of every bus event.
 * @type {Map<string, SessionState>}
 */
const sessions = new Map();
/** Bus events already handled, by id, so that a second instance does not run Stop hooks again. */
const handledEvents = new Set();
/** Work that OpenCode does not wait for (Stop, SessionEnd); `dispose` waits for it. */
const pending = new Set();

/** @param {unknown} id true the first time an event id is seen */
function firstTime(id) {
  if (id === undefined || id === null) return true;
  if (handledEvents.has(id)) return false;
  handledEvents.add(id);
  if (handledEvents.size > 1000) handledEvents.delete(handledEvents.values().next().value);
  return true;
}

/**
 * @param {PluginInput} ctx
 */
export const HookmuxPlugin = async (ctx) => {
  const bin = process.env.HOOKMUX_BIN || "hookmux";
  const directory = ctx.directory;
  const client = ctx.client;
  /** @type {string[]} */
  let mcpServers = [];

  /** @param {string} id @returns {SessionState} */
  function session(id) {
    let state = sessions.get(id);
    if (!state) {
      state = {
        parentID: undefined,
        start: undefined,
        stopActive: false,
        stopBlocks: 0,
        ended: false,
        blockedPrompts: new Map(),
        toolContext: new Map(),
        stopTurn: undefined,
        stopNow: false,
        continuations: new Set(),
      };
      sessions.set(id, state);
    }
    return state;
  }

  /**
   * Runs `hookmux dispatch --host opencode` on one event.
   * @param {Record<string, unknown>} event
   * @returns {Promise<Answer>}
   */
  function dispatch(event) {
    const payload = JSON.stringify({ directory, mcp_servers: mcpServers, ...event });
    return new Promise((resolve) => {
      let stdout = "";
      let stderr = "";
      const child = spawn(bin, ["dispatch", "--host", "opencode"], {
        cwd: directory,
        env: { ...process.env, CLAUDE_PROJECT_DIR: directory },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
      child.on("error", (err) =>
        resolve({ systemMessage: `hookmux: cannot run \`${bin}\` (${err.message}); set HOOKMUX_BIN or put hookmux on PATH. Claude hooks did not run.` }),
      );
      child.on("close", () => {
        try {
          resolve(stdout.trim() ? JSON.parse(stdout) : {});
        } catch {
          resolve({ systemMessage: `hookmux: unreadable answer from \`${bin} dispatch\`: ${stdout.slice(0, 200)} ${stderr.slice(0, 200)}` });
        }
      });
      // A hookmux that exits before reading is reported by `close`; a broken pipe is not news.
      child.stdin.on("error", () => {});
      child.stdin.end(payload);
    });
  }

  /** Tells the user (never the model): OpenCode's log and, in the TUI, a toast. @param {string | undefined} text */
  function notify(text) {
    if (!text) return;
    Promise.resolve(client?.app?.log?.({ body: { service: "hookmux", level: "warn", message: text } })).catch(() => {});
    Promise.resolve(client?.tui?.showToast?.({ body: { message: text, variant: "warning" } })).catch(() => {});
  }

  /** Keeps work OpenCode does not wait for until `dispose`. @param {Promise<unknown>} work */
  function track(work) {
    const settled = work.catch((err) => notify(`hookmux: ${err?.message ?? err}`)).finally(() => pending.delete(settled));
    pending.add(settled);
    return settled;
  }

  /**
   * The SessionStart (or SubagentStart) context of a session, asked for once: `startup` when
   * OpenCode creates the session, `compact` after compaction, and `resume` for a session this
   * plugin first meets when the model is about to be asked.
   * @param {string} id @param {string} [source]
   */
  function sessionStart(id, source) {
    const state = session(id);
    if (!state.start || source) {
      state.start = dispatch({
        hook: "session.created",
        input: { sessionID: id, info: { id, parentID: state.parentID } },
        parentID: state.parentID,
        source: source ?? "resume",
      }).then((answer) => {
        notify(answer.systemMessage);
        return answer.context;
      });
    }
    return state.start;
  }

  /** The parent of a session, asking OpenCode when the session was not seen being created. @param {string} id */
  async function parentOf(id) {
    const state = session(id);
    if (state.parentID === undefined && client?.session?.get) {
      try {
        const found = await client.session.get({ path: { id } });
        state.parentID = found?.data?.parentID ?? null;
      } catch {
        // Without it, the session is taken for a main one: Stop rather than SubagentStop.
      }
    }
    return state.parentID;
  }

  /** The assistant's last text in a session, for Stop's `last_assistant_message`. @param {string} id */
  async function lastAssistantText(id) {
    try {
      const found = await client?.session?.messages?.({ path: { id } });
      const messages = Array.isArray(found?.data) ? found.data : [];
      const last = messages.filter((m) => m?.info?.role === "assistant").at(-1);
      const text = (last?.parts ?? []).filter((p) => p?.type === "text").map((p) => p.text).join("\n");
      return text || undefined;
    } catch {
      return undefined;
    }
  }

  /** Stop hooks at the end of a turn; a block continues it with the reason as a new prompt. @param {string} id */
  async function stop(id) {
    const state = session(id);
    if (state.ended) return;
    const parentID = await parentOf(id);
    const answer = await dispatch({
      hook: "session.idle",
      input: { sessionID: id },
      parentID,
      stop_hook_active: state.stopActive,
      last_assistant_message: await lastAssistantText(id),
    });
    notify(answer.systemMessage);
    if (answer.stop || !answer.continuePrompt) {
      notify(answer.stop);
      state.stopActive = false;
      state.stopBlocks = 0;
      return;
    }
    if (state.stopBlocks >= STOP_BLOCK_CAP) {
      notify(`hookmux: Stop hooks blocked ${STOP_BLOCK_CAP} times in a row; the turn ends here, as in Claude Code`);
      state.stopActive = false;
      state.stopBlocks = 0;
      return;
    }
    state.stopBlocks += 1;
    state.stopActive = true;
    await continueWith(id, answer.continuePrompt);
  }

  /**
   * Sends a Stop hook's reason as a new prompt. OpenCode reports a session idle just before its
   * run loop lets go; a prompt sent in that instant joins the finishing loop and is never
   * answered, so the prompt waits a moment and is sent again (once) if it was not answered.
   * @param {string} id @param {string} text
   */
  async function continueWith(id, text) {
    const state = session(id);
    state.continuations.add(text);
    for (const wait of [25, 250]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = Date.now();
      const reply = await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text }] } });
      const created = reply?.data?.info?.time?.created;
      if (typeof created !== "number" || created >= sent) return;
    }
  }

  let idTime = 0;
  let idCounter = 0;
  /** A part OpenCode accepts: ids sort by time, like OpenCode's own. @param {string} prefix */
  function ascendingId(prefix) {
    const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    idCounter = Date.now() === idTime ? idCounter + 1 : 0;
    idTime = Date.now();
    const stamp = (BigInt(idTime) * 4096n + BigInt(idCounter)).toString(16).padStart(12, "0").slice(-12);
    let tail = "";
    for (let i = 0; i < 14; i++) tail += chars[Math.floor(Math.random() * chars.length)];
    return `${prefix}_${stamp}${tail}`;
  }

  /** The text parts of a message, without file contents and the like. @param {any[]} parts */
  function textParts(parts) {
    return (parts ?? [])
      .filter((p) => p?.type === "text")
      .map((p) => ({ type: "text", text: p.text, synthetic: p.synthetic, ignored: p.ignored }));
  }

  return {
    config: async (cfg) => {
      mcpServers = Object.keys(cfg?.mcp ?? {});
    },

    event: async ({ event }) => {
      const props = event?.properties ?? {};
      const id = props.sessionID ?? props.info?.id;
      if (!id || !firstTime(event.id)) return;
      switch (event.type) {
        case "session.created":
          session(id).parentID = props.info?.parentID ?? null;
          track(sessionStart(id, "startup"));
          break;
        case "session.error":
          session(id).ended = true;
          break;
        case "session.idle":
          track(stop(id));
          break;
        case "session.compacted":
          track(
            dispatch({ hook: "session.compacted", input: { sessionID: id } }).then((answer) => {
              notify(answer.systemMessage);
              return sessionStart(id, "compact");
            }),
          );
          break;
        case "session.deleted":
          track(dispatch({ hook: "session.deleted", input: { sessionID: id } }).then((answer) => notify(answer.systemMessage)));
          sessions.delete(id);
          break;
      }
    },

    "experimental.chat.system.transform": async (input, output) => {
      if (!input?.sessionID) return;
      const context = await sessionStart(input.sessionID);
      if (context) output.system.push(context);
    },

    "chat.message": async (input, output) => {
      const state = session(input.sessionID);
      const parts = textParts(output.parts);
      // A Stop hook's continuation is not a prompt of the user's: no UserPromptSubmit for it.
      if (parts.some((p) => state.continuations.delete(p.text))) return;
      state.stopActive = false;
      state.stopBlocks = 0;
      state.ended = false;
      const answer = await dispatch({ hook: "chat.message", input, output: { parts } });
      notify(answer.systemMessage);
      const messageID = output.message?.id ?? input.messageID;
      if (answer.block) {
        // Claude Code drops a blocked prompt: the model never sees it, now or later.
        for (const part of output.parts ?? []) if (part?.type === "text") part.ignored = true;
        state.blockedPrompts.set(messageID, answer.block);
        state.ended = true;
        return;
      }
      if (answer.context) {
        output.parts.push({ id: ascendingId("prt"), sessionID: input.sessionID, messageID, type: "text", text: answer.context, synthetic: true });
      }
    },

    // Throwing from chat.message gives only "Unexpected server error"; throwing here, before the
    // model is asked, ends the turn with the hook's reason for the user to read.
    "chat.params": async (input) => {
      const state = session(input.sessionID);
      const reason = state.blockedPrompts.get(input.message?.id);
      if (reason) throw new Error(reason);
      if (state.stopNow) {
        // The stop reason is for the user (as Claude Code shows it), not in the error the turn
        // ends with.
        notify(state.stopTurn);
        state.stopNow = false;
        state.stopTurn = undefined;
        state.ended = true;
        throw new Error("hookmux: a hook ended the turn (continue: false)");
      }
    },

    "command.execute.before": async (input, output) => {
      const answer = await dispatch({ hook: "command.execute.before", input, output: { parts: textParts(output.parts) } });
      notify(answer.systemMessage);
      if (answer.block) throw new Error(answer.block);
      if (answer.context) output.parts.push({ type: "text", text: answer.context, synthetic: true });
    },

    "tool.execute.before": async (input, output) => {
      const answer = await dispatch({ hook: "tool.execute.before", input, output: { args: output.args } });
      notify(answer.systemMessage);
      if (answer.block) throw new Error(answer.context ? `${answer.block}\n\n${answer.context}` : answer.block);
      if (answer.args && typeof answer.args === "object") {
        // OpenCode runs the tool with the very object it passed in: change it in place.
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, answer.args);
      }
      const state = session(input.sessionID);
      if (answer.context) state.toolContext.set(input.callID, answer.context);
      if (answer.stop) state.stopTurn = answer.stop;
    },

    "tool.execute.after": async (input, output) => {
      const state = session(input.sessionID);
      const answer = await dispatch({
        hook: "tool.execute.after",
        input,
        output: { title: output.title, output: output.output, metadata: output.metadata },
      });
      notify(answer.systemMessage);
      if (typeof answer.replaceOutput === "string") output.output = answer.replaceOutput;
      const added = [state.toolContext.get(input.callID), answer.appendOutput].filter(Boolean);
      state.toolContext.delete(input.callID);
      if (added.length) output.output = [output.output, ...added].filter((t) => t !== undefined && t !== "").join("\n\n");
      const stopTurn = answer.stop ?? state.stopTurn;
      if (stopTurn) {
        // Claude Code ends the turn after the tool: its result stands, the model is not asked
        // again. That is the next chat.params.
        state.stopTurn = stopTurn;
        state.stopNow = true;
      }
    },

    "experimental.session.compacting": async (input, output) => {
      const answer = await dispatch({ hook: "experimental.session.compacting", input, output: { context: output.context } });
      notify(answer.systemMessage);
      for (const text of answer.compactionContext ?? []) output.context.push(text);
    },

    dispose: async () => {
      // A Stop hook's continuation (or SessionEnd) may still be on its way when OpenCode shuts
      // down, as `opencode run` does right after the session goes idle.
      while (pending.size) await Promise.all([...pending]);
    },
  };
};

export default HookmuxPlugin;
