//! What each event can do on the wire: how it blocks, and where it takes text for the model.

use hookmux_sdk::HookEvent;

/// Events whose exit 2 only shows its message to the user (it cannot block).
pub fn exit2_is_a_notice(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(event, SessionStart | Setup | SubagentStart | CwdChanged | FileChanged | PostCompact | SessionEnd)
}

/// Events that block through the exit code only.
pub fn blocks_by_exit_code(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(event, TaskCompleted | TeammateIdle | WorktreeCreate | Elicitation | ElicitationResult)
}

/// Events that block through `decision: "block"`.
pub fn blocks_with_decision(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(
        event,
        UserPromptSubmit
            | UserPromptExpansion
            | PostToolUse
            | PostToolUseFailure
            | PostToolBatch
            | Stop
            | SubagentStop
            | ConfigChange
            | PreCompact
            | TaskCreated
    )
}

/// Events whose `hookSpecificOutput` takes `additionalContext`.
pub fn takes_additional_context(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(
        event,
        SessionStart
            | Setup
            | SubagentStart
            | UserPromptSubmit
            | UserPromptExpansion
            | PreToolUse
            | PostToolUse
            | PostToolUseFailure
            | PostToolBatch
            | Stop
            | SubagentStop
    )
}
