//! Problems found in a settings file, each with the file, the JSON path and what to do.

use crate::jsonpath::JsonPath;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: PathBuf,
    pub path: JsonPath,
    /// What is wrong, and what hookmux did about it (e.g. "skipped").
    pub message: String,
    /// What to do.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(file: impl Into<PathBuf>, path: JsonPath, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, file: file.into(), path, message: message.into(), hint: None }
    }

    pub fn warning(file: impl Into<PathBuf>, path: JsonPath, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, file: file.into(), path, message: message.into(), hint: None }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.file.display())?;
        if !self.path.is_root() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}
