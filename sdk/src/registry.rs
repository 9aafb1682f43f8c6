//! The handler registry: every handler linked into the binary, by name.
//!
//! Handlers register themselves with [`register_handler!`](crate::register_handler), which
//! submits a [`Registration`] to `inventory`. `inventory` visits registrations in no particular
//! order and does not notice two handlers with one name, so the registry sorts by name and
//! refuses duplicates, naming both places.

use crate::Handler;
use std::fmt;
use std::sync::OnceLock;

/// Where a handler was registered: the `register_handler!` call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub module: &'static str,
    pub file: &'static str,
    pub line: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} ({})", self.file, self.line, self.module)
    }
}

/// One registered handler.
pub struct Registration {
    pub handler: &'static dyn Handler,
    pub location: Location,
}

impl Registration {
    #[doc(hidden)]
    pub const fn new(handler: &'static dyn Handler, location: Location) -> Registration {
        Registration { handler, location }
    }

    pub fn name(&self) -> &'static str {
        self.handler.info().name
    }
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration").field("name", &self.name()).field("location", &self.location).finish()
    }
}

inventory::collect!(Registration);

/// Two handlers share a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "two handlers are registered as `{name}`: one at {first}, the other at {second}; \
     rename one of them (handler names must be unique)"
)]
pub struct DuplicateHandler {
    pub name: &'static str,
    pub first: Location,
    pub second: Location,
}

/// Every registered handler, sorted by name.
#[derive(Debug)]
pub struct Registry {
    entries: Vec<&'static Registration>,
}

impl Registry {
    /// Builds a registry from registrations in any order.
    pub fn from_registrations(
        registrations: impl IntoIterator<Item = &'static Registration>,
    ) -> Result<Registry, DuplicateHandler> {
        let mut entries: Vec<&'static Registration> = registrations.into_iter().collect();
        // Sort by name, then by place, so that the error is the same on every run.
        entries.sort_by_key(|r| (r.name(), r.location.file, r.location.line));
        if let Some(pair) = entries.windows(2).find(|pair| pair[0].name() == pair[1].name()) {
            return Err(DuplicateHandler { name: pair[0].name(), first: pair[0].location, second: pair[1].location });
        }
        Ok(Registry { entries })
    }

    /// The handlers linked into this binary.
    pub fn global() -> Result<&'static Registry, &'static DuplicateHandler> {
        static GLOBAL: OnceLock<Result<Registry, DuplicateHandler>> = OnceLock::new();
        GLOBAL.get_or_init(|| Registry::from_registrations(inventory::iter::<Registration>)).as_ref()
    }

    /// The handler called `name`.
    pub fn get(&self, name: &str) -> Option<&'static dyn Handler> {
        self.entries.binary_search_by(|r| r.name().cmp(name)).ok().map(|index| self.entries[index].handler)
    }

    /// The registration called `name`, with its location.
    pub fn registration(&self, name: &str) -> Option<&'static Registration> {
        self.entries.binary_search_by(|r| r.name().cmp(name)).ok().map(|index| self.entries[index])
    }

    /// All registrations, by name.
    pub fn iter(&self) -> impl Iterator<Item = &'static Registration> + '_ {
        self.entries.iter().copied()
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|r| r.name())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Registers a handler with hookmux. The argument is a constant expression of a type that
/// implements [`Handler`](crate::Handler), usually a unit struct:
///
/// ```
/// use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};
///
/// struct Hello;
///
/// static INFO: HandlerInfo = HandlerInfo {
///     name: "hello",
///     description: "Greets every new session",
///     events: &[HookEvent::SessionStart],
///     matcher: None,
///     options: &[],
/// };
///
/// impl Handler for Hello {
///     fn info(&self) -> &'static HandlerInfo { &INFO }
///     fn handle(&self, _cx: &Context) -> anyhow::Result<Answer> {
///         Ok(Answer::text("hello"))
///     }
/// }
///
/// register_handler!(Hello);
/// ```
#[macro_export]
macro_rules! register_handler {
    ($handler:expr) => {
        $crate::__private::inventory::submit! {
            $crate::Registration::new(
                &$handler,
                $crate::Location { module: module_path!(), file: file!(), line: line!() },
            )
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answer, Context, HandlerInfo, HookEvent};

    struct Named(&'static HandlerInfo);
    impl Handler for Named {
        fn info(&self) -> &'static HandlerInfo {
            self.0
        }
        fn handle(&self, _cx: &Context) -> anyhow::Result<Answer> {
            Ok(Answer::none())
        }
    }

    const fn info(name: &'static str) -> HandlerInfo {
        HandlerInfo { name, description: "", events: &[HookEvent::Stop], matcher: None, options: &[] }
    }
    static ZETA: HandlerInfo = info("zeta");
    static ALPHA: HandlerInfo = info("alpha");
    static ALPHA2: HandlerInfo = info("alpha");
    const fn at(line: u32) -> Location {
        Location { module: "tests", file: "x.rs", line }
    }
    static R_ZETA: Registration = Registration::new(&Named(&ZETA), at(1));
    static R_ALPHA: Registration = Registration::new(&Named(&ALPHA), at(2));
    static R_ALPHA2: Registration = Registration::new(&Named(&ALPHA2), at(3));

    #[test]
    fn sorted_by_name_whatever_the_visit_order() {
        let registry = Registry::from_registrations([&R_ZETA, &R_ALPHA]).unwrap();
        assert_eq!(registry.names().collect::<Vec<_>>(), ["alpha", "zeta"]);
        assert!(registry.get("zeta").is_some());
        assert!(registry.get("omega").is_none());
    }

    #[test]
    fn duplicate_names_are_refused_naming_both() {
        let err = Registry::from_registrations([&R_ALPHA2, &R_ZETA, &R_ALPHA]).unwrap_err();
        assert_eq!(err.name, "alpha");
        assert_eq!((err.first.line, err.second.line), (2, 3));
        let message = err.to_string();
        assert!(message.contains("x.rs:2") && message.contains("x.rs:3"), "{message}");
    }
}
