//! A hook's processes, found in a process table: the hook and everything below it by parent
//! links (children that left its process group with `setsid` included, which a signal to the
//! group does not reach; Claude Code finds them the same way, with `ps`, when a hook times out),
//! and every process whose environment carries the hook's mark (a daemon's double fork, whose
//! parent has exited and which is below no hook any more).
//!
//! This module is the walk only, over a [`Table`] that the operating system's module reads
//! (`/proc` on Linux, libproc and `sysctl` on macOS) and that tests build by hand, so that the
//! walk's logic is tested on every OS, whatever its process table.
//!
//! A process is named by its pid and its start time ([`Proc`]), so that a pid reused by an
//! unrelated process after the one found has died is never taken for it.

use std::collections::BTreeSet;

/// One process: its pid and when it started, in whatever unit the table gives (clock ticks since
/// boot on Linux, microseconds since the epoch on macOS). Two processes that had the same pid at
/// different times differ in `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Proc {
    pub pid: i32,
    pub start: u64,
}

/// One row of a process table, read at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub proc: Proc,
    pub ppid: i32,
    /// Exited, not yet reaped by its parent: no signal reaches it, none is needed.
    pub zombie: bool,
}

/// A process table as read at one moment.
pub trait Table {
    fn rows(&self) -> &[Row];
    /// Whether the environment `pid` was exec'd with holds `entry` (`NAME=value` bytes). A process
    /// whose environment cannot be read (another user's, or one that made itself unreadable)
    /// does not hold it.
    fn environ_holds(&self, pid: i32, entry: &[u8]) -> bool;
}

/// `roots` that still run, and every running process below one of them by parent links, as the
/// table shows them (a process forked after the table was read is not among them).
pub fn below(table: &impl Table, roots: &BTreeSet<Proc>) -> BTreeSet<Proc> {
    let rows = table.rows();
    let mut found: BTreeSet<Proc> = rows.iter().filter(|row| roots.contains(&row.proc)).map(|row| row.proc).collect();
    let mut parents: BTreeSet<i32> = found.iter().map(|proc| proc.pid).collect();
    // Breadth first, one level per pass. A parent link never points below itself in a table read
    // at one moment, but one read while processes come and go may hold a cycle: the passes are
    // bounded, and a process already found is never added twice.
    for _ in 0..rows.len() {
        let next: Vec<Proc> = rows
            .iter()
            .filter(|row| parents.contains(&row.ppid) && !found.contains(&row.proc))
            .map(|row| row.proc)
            .collect();
        if next.is_empty() {
            break;
        }
        parents = next.iter().map(|proc| proc.pid).collect();
        found.extend(next);
    }
    found.retain(|proc| rows.iter().any(|row| row.proc == *proc && !row.zombie));
    found
}

/// The running processes not among `parents` whose parent link names one of `parents` and that
/// started no earlier than that parent. For a table whose parent links are pids that may have
/// been reused since (Windows keeps the pid of the process that created a process, even after it
/// exits and its pid goes to another): a process that started before the one now holding its
/// parent's pid was started by an earlier holder, and is not this parent's. Start times must come
/// from one clock that only moves forward for the guard to hold; equal times count as after, for
/// a clock coarser than process creation.
pub fn children_since(table: &impl Table, parents: &BTreeSet<Proc>) -> BTreeSet<Proc> {
    table
        .rows()
        .iter()
        .filter(|row| !row.zombie && !parents.contains(&row.proc))
        .filter(|row| parents.iter().any(|parent| parent.pid == row.ppid && parent.start <= row.proc.start))
        .map(|row| row.proc)
        .collect()
}

/// Every running process but `own` whose environment holds `entry`.
pub fn carrying(table: &impl Table, entry: &[u8], own: i32) -> BTreeSet<Proc> {
    table
        .rows()
        .iter()
        .filter(|row| !row.zombie && row.proc.pid != own && table.environ_holds(row.proc.pid, entry))
        .map(|row| row.proc)
        .collect()
}

/// `pid` and every process above it by parent links, as the table shows them: the processes that
/// ending others must spare (hookmux itself, the host that started it, and what started the host).
pub fn ancestors(table: &impl Table, pid: i32) -> BTreeSet<i32> {
    let rows = table.rows();
    let mut found = BTreeSet::from([pid]);
    let mut at = pid;
    // Bounded, for a table read while processes come and go that holds a cycle.
    for _ in 0..rows.len() {
        let Some(parent) = rows.iter().find(|row| row.proc.pid == at).map(|row| row.ppid) else { break };
        if parent <= 0 || !found.insert(parent) {
            break;
        }
        at = parent;
    }
    found
}

/// A hook's processes: those carrying its mark, those already `known`, and everything below them.
pub fn of_hook(table: &impl Table, mark: &[u8], own: i32, known: &BTreeSet<Proc>) -> BTreeSet<Proc> {
    let mut roots = carrying(table, mark, own);
    roots.extend(known.iter().copied());
    below(table, &roots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A table built by hand: (pid, start, ppid, zombie) rows and the environments that hold the mark.
    struct Fake {
        rows: Vec<Row>,
        marked: BTreeMap<i32, Vec<u8>>,
    }

    impl Table for Fake {
        fn rows(&self) -> &[Row] {
            &self.rows
        }
        fn environ_holds(&self, pid: i32, entry: &[u8]) -> bool {
            self.marked.get(&pid).is_some_and(|held| held == entry)
        }
    }

    fn fake(rows: &[(i32, u64, i32, bool)], marked: &[i32]) -> Fake {
        Fake {
            rows: rows
                .iter()
                .map(|&(pid, start, ppid, zombie)| Row { proc: Proc { pid, start }, ppid, zombie })
                .collect(),
            marked: marked.iter().map(|&pid| (pid, b"MARK=1".to_vec())).collect(),
        }
    }

    fn pids(found: &BTreeSet<Proc>) -> Vec<i32> {
        found.iter().map(|proc| proc.pid).collect()
    }

    fn root(pid: i32, start: u64) -> BTreeSet<Proc> {
        BTreeSet::from([Proc { pid, start }])
    }

    #[test]
    fn everything_below_the_root_at_any_depth_and_nothing_beside_it() {
        // 1 ─ 10 (the hook) ─ 11 ─ 12 ─ 13, 10 ─ 14; 1 ─ 20 ─ 21 is someone else's.
        let table = fake(
            &[
                (1, 1, 0, false),
                (10, 5, 1, false),
                (11, 6, 10, false),
                (12, 7, 11, false),
                (13, 8, 12, false),
                (14, 9, 10, false),
                (20, 5, 1, false),
                (21, 6, 20, false),
            ],
            &[],
        );
        assert_eq!(pids(&below(&table, &root(10, 5))), [10, 11, 12, 13, 14]);
    }

    #[test]
    fn a_root_whose_pid_was_reused_is_not_the_root() {
        // pid 10 now belongs to a process that started later than the hook that had it.
        let table = fake(&[(1, 1, 0, false), (10, 50, 1, false), (11, 51, 10, false)], &[]);
        assert!(below(&table, &root(10, 5)).is_empty());
    }

    #[test]
    fn zombies_are_walked_through_but_never_returned() {
        // The hook's shell exited but is not reaped: what it started is still its.
        let table = fake(&[(10, 5, 1, true), (11, 6, 10, false), (12, 7, 11, true)], &[]);
        assert_eq!(pids(&below(&table, &root(10, 5))), [11]);
    }

    #[test]
    fn a_cycle_in_a_table_read_mid_change_ends() {
        let table = fake(&[(10, 5, 11, false), (11, 6, 10, false)], &[]);
        assert_eq!(pids(&below(&table, &root(10, 5))), [10, 11]);
    }

    #[test]
    fn marked_processes_and_their_children_are_the_hooks_even_below_no_hook() {
        // 30 was double-forked: its parent exited and init (1) took it; 31 is its child.
        // 40 carries the mark too but is this very process; 41 is a marked zombie.
        let table = fake(
            &[(1, 1, 0, false), (30, 9, 1, false), (31, 10, 30, false), (40, 2, 1, false), (41, 3, 1, true)],
            &[30, 40, 41],
        );
        assert_eq!(pids(&carrying(&table, b"MARK=1", 40)), [30]);
        assert!(carrying(&table, b"MARK=2", 40).is_empty(), "another hook's mark is not this one");
        assert_eq!(pids(&of_hook(&table, b"MARK=1", 40, &BTreeSet::new())), [30, 31]);
    }

    #[test]
    fn ancestors_are_the_parent_links_up_from_a_process_and_end_on_a_cycle() {
        // 1 ─ 5 (the host) ─ 7 (hookmux) ─ 9; 1 ─ 20 is someone else's.
        let table =
            fake(&[(1, 1, 0, false), (5, 2, 1, false), (7, 3, 5, false), (9, 4, 7, false), (20, 5, 1, false)], &[]);
        assert_eq!(ancestors(&table, 7).into_iter().collect::<Vec<_>>(), [1, 5, 7]);
        let cycle = fake(&[(10, 5, 11, false), (11, 6, 10, false)], &[]);
        assert_eq!(ancestors(&cycle, 10).into_iter().collect::<Vec<_>>(), [10, 11]);
        assert_eq!(ancestors(&cycle, 99).into_iter().collect::<Vec<_>>(), [99], "a process the table lacks");
    }

    #[test]
    fn a_child_is_one_that_started_after_its_parent_not_before_the_pid_was_reused() {
        // 10 (the hook, started at 50) holds a pid that an earlier process (started at 5) had:
        // 11 was that one's child, 12 and 13 the hook's (13 in the same clock tick), 14 a
        // grandchild, 15 a zombie child, 20 someone else's.
        let table = fake(
            &[
                (10, 50, 1, false),
                (11, 6, 10, false),
                (12, 51, 10, false),
                (13, 50, 10, false),
                (14, 52, 12, false),
                (15, 53, 10, true),
                (20, 60, 1, false),
            ],
            &[],
        );
        let hook = root(10, 50);
        assert_eq!(pids(&children_since(&table, &hook)), [12, 13]);
        let both = BTreeSet::from([Proc { pid: 10, start: 50 }, Proc { pid: 12, start: 51 }]);
        assert_eq!(pids(&children_since(&table, &both)), [13, 14], "a parent is never its own child");
        assert!(children_since(&table, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn processes_known_from_an_earlier_look_are_looked_for_below_themselves() {
        // The hook (10) has died since it was seen; 11, found under it then, is now init's child.
        let table = fake(&[(1, 1, 0, false), (11, 6, 1, false), (12, 7, 11, false)], &[]);
        let known = BTreeSet::from([Proc { pid: 10, start: 5 }, Proc { pid: 11, start: 6 }]);
        assert_eq!(pids(&of_hook(&table, b"MARK=1", 99, &known)), [11, 12]);
    }
}
