//! brewcode's other files: the state file (`.claude/tasks/cfg/brewcode.state.json`) and the
//! active mode (`$CLAUDE_PLUGIN_DATA/modes.json`, instructions in `modes/<name>.md`).

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, path, Js, JsError};
use serde_json::{Map, Value};

/// The state file, relative to the project.
pub const STATE_FILE: &str = ".claude/tasks/cfg/brewcode.state.json";

/// An active mode: its name and the instructions injected with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mode {
    pub name: String,
    pub instructions: String,
}

impl Hook<'_> {
    /// `getState(cwd)`: the state file's JSON (any JSON), or `{}` when it is missing or unreadable.
    pub fn state(&self) -> Js<Value> {
        let file = self.join(&[STATE_FILE]);
        if !self.exists(&file) {
            return Ok(Value::Object(Map::new()));
        }
        let parsed = self.read_text(&file).and_then(|text| serde_json::from_str(&text).map_err(|err| err.to_string()));
        match parsed {
            Ok(state) => Ok(state),
            Err(error) => {
                self.log(Level::Warn, "[state]", &format!("Failed to read state: {error}"), Tag::None)?;
                Ok(Value::Object(Map::new()))
            }
        }
    }

    /// `saveState(cwd, state)`: an atomic rewrite, two-space indented; a failure is a warning.
    pub fn save_state(&self, state: &Value) -> Js<()> {
        if self.dry() {
            return Ok(());
        }
        let file = self.join(&[STATE_FILE]);
        let dir = path::dirname(&file);
        let written = if self.exists(&dir) { Ok(()) } else { self.mkdir_all(&dir) }
            .and_then(|()| self.write_atomic(&file, &js::stringify_pretty(state)));
        match written {
            Ok(()) => Ok(()),
            Err(error) => self.log(Level::Warn, "[state]", &format!("Failed to save state: {error}"), Tag::None),
        }
    }

    /// `getActiveMode(cwd, sessionId)`: the mode for this session, else this project, else
    /// global, from `modes.json`; else the state file's legacy `mode`. `None` when no mode is
    /// set or its instructions are missing or empty.
    pub fn active_mode(&self) -> Js<Option<Mode>> {
        let env = self.cx().env();
        let plugin_data = env.get("CLAUDE_PLUGIN_DATA").unwrap_or_default().to_string();
        let plugin_root = env.get("CLAUDE_PLUGIN_ROOT").unwrap_or_default().to_string();
        let mut chosen: Option<(Value, &str)> = None;
        if !plugin_data.is_empty() {
            let modes_file = path::join(&[&plugin_data, "modes.json"]);
            if let Err(error) = self.mode_from_file(&modes_file, &mut chosen) {
                self.log(Level::Warn, "[mode]", &format!("Failed to read modes.json: {error}"), Tag::None)?;
            }
        }
        if chosen.is_none() {
            let state = self.state()?;
            if state.is_null() {
                return Err(JsError::new("Cannot read properties of null (reading 'mode')"));
            }
            if let Some(mode) = js::or_none(js::prop(Some(&state), "mode")) {
                chosen = Some((mode.clone(), "legacy"));
            }
        }
        let Some((name, scope)) = chosen else { return Ok(None) };
        let name = js::string_of(Some(&name));
        let file_name = format!("{name}.md");
        let candidates: Vec<String> = [&plugin_data, &plugin_root]
            .into_iter()
            .filter(|base| !base.is_empty())
            .map(|base| path::join(&[base, "modes", &file_name]))
            .collect();
        for candidate in candidates {
            if !self.exists(&candidate) {
                continue;
            }
            match self.read_text(&candidate) {
                Ok(text) => {
                    let instructions = js::text::trim(&text);
                    if !instructions.is_empty() {
                        return Ok(Some(Mode { name, instructions: instructions.to_string() }));
                    }
                }
                Err(error) => {
                    let message = format!("Failed to read mode \"{name}\" from {candidate}: {error}");
                    self.log(Level::Warn, "[mode]", &message, Tag::None)?;
                }
            }
        }
        let message = format!("Mode \"{name}\" active ({scope}) but no instructions file found");
        self.log(Level::Warn, "[mode]", &message, Tag::None)?;
        Ok(None)
    }

    /// The `try` block over `modes.json`: session, then project, then global scope.
    fn mode_from_file(&self, modes_file: &str, chosen: &mut Option<(Value, &'static str)>) -> Result<(), String> {
        if !self.exists(modes_file) {
            return Ok(());
        }
        let modes: Value = serde_json::from_str(&self.read_text(modes_file)?).map_err(|err| err.to_string())?;
        let session = self.session();
        let scoped =
            |scope: &str, key: &str| js::or_none(js::prop(js::prop(js::prop(Some(&modes), scope), key), "mode"));
        if js::truthy(session) {
            if modes.is_null() {
                return Err("Cannot read properties of null (reading 'sessions')".into());
            }
            if let Some(mode) = scoped("sessions", &js::string_of(session)) {
                *chosen = Some((mode.clone(), "session"));
                return Ok(());
            }
        }
        if modes.is_null() {
            return Err("Cannot read properties of null (reading 'projects')".into());
        }
        if let Some(mode) = scoped("projects", self.cwd()) {
            *chosen = Some((mode.clone(), "project"));
        } else if let Some(mode) = js::or_none(js::prop(js::prop(Some(&modes), "global"), "mode")) {
            *chosen = Some((mode.clone(), "global"));
        }
        Ok(())
    }
}
