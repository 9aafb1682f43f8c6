//! What each event can do on the wire: how it blocks, and where it takes text for the model.
//! The facts are one table, `hookmux_sdk::HookEvent`'s (see [`HookEvent::spec`]); an event
//! hookmux does not know reads as [`EventSpec::GENERIC`](hookmux_sdk::EventSpec::GENERIC).

use hookmux_sdk::{Exit2, HookEvent};

/// Events whose exit 2 only shows its message to the user (it cannot block).
pub fn exit2_is_a_notice(event: HookEvent) -> bool {
    event.spec().exit2 == Exit2::Notice
}

/// Events that block through the exit code only.
pub fn blocks_by_exit_code(event: HookEvent) -> bool {
    event.spec().exit2 == Exit2::ExitCode
}

/// Events that block through `decision: "block"`.
pub fn blocks_with_decision(event: HookEvent) -> bool {
    event.spec().exit2 == Exit2::Block
}

/// Events whose hooks decide a permission (`hookSpecificOutput.permissionDecision`), and whose
/// exit 2 is a deny: PreToolUse, PreModelSwitch.
pub fn decides_permission(event: HookEvent) -> bool {
    !event.spec().permission.is_empty()
}

/// Events whose `hookSpecificOutput` takes `additionalContext`.
pub fn takes_additional_context(event: HookEvent) -> bool {
    event.spec().additional_context
}
