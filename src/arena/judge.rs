//! The operating-system side of the Gomocup judge's conditions (`match --judge-conditions`,
//! docs/tools.md): GomocupJudge runs an engine on one core (`start /affinity 1`), suspends
//! its process after the `START` reply and the `INFO` block and whenever it is not the
//! engine's turn, and counts the unique memory of the whole process tree against
//! `max_memory`. The Linux equivalents here:
//! - [`pin_tree`] sets the CPU affinity of every thread of the engine's process tree to one
//!   CPU (threads and processes made later inherit it);
//! - [`signal_group`] stops (SIGSTOP) or continues (SIGCONT) the engine's process group
//!   (every engine runs in a group of its own, so its children stop too);
//! - [`unique_memory`] sums the private pages (`Private_Clean + Private_Dirty +
//!   Private_Hugetlb` of `/proc/PID/smaps_rollup`) over the process tree.
//!
//! Who calls them when is the player's and the referee's business; this file uses no other
//! part of the arena. Elsewhere than on Linux every call fails with
//! [`io::ErrorKind::Unsupported`] ([`SUPPORTED`] says which).

use std::io;

/// Whether this system can run engines under the judge's conditions (Linux only).
pub const SUPPORTED: bool = cfg!(target_os = "linux");

/// The memory fields of `smaps_rollup` that are the process's own (its unique memory).
const UNIQUE_FIELDS: [&str; 3] = ["Private_Clean:", "Private_Dirty:", "Private_Hugetlb:"];

/// The unique memory in bytes that a `/proc/PID/smaps_rollup` text reports: the sum of its
/// private fields (given in kB). `None` when none of them is there.
pub fn parse_unique_memory(smaps_rollup: &str) -> Option<u64> {
    let mut total = None;
    for line in smaps_rollup.lines() {
        let mut words = line.split_whitespace();
        let (Some(key), Some(value)) = (words.next(), words.next()) else {
            continue;
        };
        if !UNIQUE_FIELDS.contains(&key) {
            continue;
        }
        let kb: u64 = value.parse().ok()?;
        let unit = words.next().unwrap_or("kB");
        if unit != "kB" {
            return None;
        }
        *total.get_or_insert(0) += kb * 1024;
    }
    total
}

/// The CPU that worker `worker` of a match pins its engines to: the CPUs this process may
/// run on, taken in turn (worker 0 gets the first, as `start /affinity 1` gives CPU 0).
pub fn cpu_for_worker(worker: usize) -> usize {
    let cpus = sys::usable_cpus();
    if cpus.is_empty() {
        return 0;
    }
    cpus[worker % cpus.len()]
}

/// Pins every thread of process `pid` and of its descendants to CPU `cpu`.
///
/// Errors: the process is gone, or the system refuses (or is not Linux).
pub fn pin_tree(pid: u32, cpu: usize) -> io::Result<()> {
    for p in process_tree(pid) {
        for tid in sys::threads(p) {
            sys::pin(tid, cpu)?;
        }
    }
    Ok(())
}

/// Stops (`stop` true: SIGSTOP) or continues (SIGCONT) the process group `pgid`.
///
/// Errors: no such group (the engine has exited), or not Linux.
pub fn signal_group(pgid: u32, stop: bool) -> io::Result<()> {
    sys::signal_group(pgid, stop)
}

/// The unique memory of process `pid` and its descendants in bytes (see
/// [`parse_unique_memory`]).
///
/// Errors: the process is gone or its `smaps_rollup` cannot be read (or not Linux).
pub fn unique_memory(pid: u32) -> io::Result<u64> {
    let mut total = 0;
    for p in process_tree(pid) {
        let text = sys::smaps_rollup(p)?;
        total += parse_unique_memory(&text).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("/proc/{p}/smaps_rollup has no private memory fields"),
            )
        })?;
    }
    Ok(total)
}

/// `pid` and its descendants, parents before children.
fn process_tree(pid: u32) -> Vec<u32> {
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() {
        let p = tree[i];
        for tid in sys::threads(p) {
            for child in sys::children(p, tid) {
                if !tree.contains(&child) {
                    tree.push(child);
                }
            }
        }
        i += 1;
    }
    tree
}

#[cfg(target_os = "linux")]
mod sys {
    use std::io;

    /// The CPUs this process may run on.
    pub fn usable_cpus() -> Vec<usize> {
        // SAFETY: `cpu_set_t` is plain data; `sched_getaffinity` writes at most its size.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `set` is a valid, writable `cpu_set_t` of `size` bytes.
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: `i` is below CPU_SETSIZE, the set's capacity.
            .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
            .collect()
    }

    /// Sets the affinity of thread `tid` to CPU `cpu` alone.
    pub fn pin(tid: u32, cpu: usize) -> io::Result<()> {
        // SAFETY: as in `usable_cpus`; `cpu` is checked against the set's capacity.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "no such CPU"));
        }
        // SAFETY: `cpu` is below CPU_SETSIZE.
        unsafe { libc::CPU_SET(cpu, &mut set) };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `set` is a valid `cpu_set_t` of `size` bytes; a bad tid only fails.
        if unsafe { libc::sched_setaffinity(tid as libc::pid_t, size, &set) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Sends SIGSTOP (`stop`) or SIGCONT to the process group `pgid`.
    pub fn signal_group(pgid: u32, stop: bool) -> io::Result<()> {
        let sig = if stop { libc::SIGSTOP } else { libc::SIGCONT };
        // SAFETY: `killpg` only sends a signal; a bad group id only fails.
        if unsafe { libc::killpg(pgid as libc::pid_t, sig) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// The thread ids of process `pid` (empty when it is gone).
    pub fn threads(pid: u32) -> Vec<u32> {
        std::fs::read_dir(format!("/proc/{pid}/task"))
            .map(|dir| {
                dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The child processes that thread `tid` of process `pid` started.
    pub fn children(pid: u32, tid: u32) -> Vec<u32> {
        std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/children"))
            .map(|s| {
                s.split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The text of `/proc/PID/smaps_rollup`.
    pub fn smaps_rollup(pid: u32) -> io::Result<String> {
        std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    use std::io;

    fn unsupported() -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            "the judge's conditions need Linux",
        )
    }

    pub fn usable_cpus() -> Vec<usize> {
        Vec::new()
    }

    pub fn pin(_tid: u32, _cpu: usize) -> io::Result<()> {
        Err(unsupported())
    }

    pub fn signal_group(_pgid: u32, _stop: bool) -> io::Result<()> {
        Err(unsupported())
    }

    pub fn threads(pid: u32) -> Vec<u32> {
        vec![pid]
    }

    pub fn children(_pid: u32, _tid: u32) -> Vec<u32> {
        Vec::new()
    }

    pub fn smaps_rollup(_pid: u32) -> io::Result<String> {
        Err(unsupported())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_memory_is_the_private_fields() {
        let text = "55d0c000-7ffd0000 ---p 00000000 00:00 0    [rollup]\n\
                    Rss:               12000 kB\n\
                    Pss:                9000 kB\n\
                    Shared_Clean:       3000 kB\n\
                    Private_Clean:       500 kB\n\
                    Private_Dirty:      8000 kB\n\
                    Private_Hugetlb:       0 kB\n\
                    Swap:                100 kB\n";
        assert_eq!(parse_unique_memory(text), Some(8500 * 1024));
        assert_eq!(parse_unique_memory("Rss: 10 kB\n"), None);
        assert_eq!(parse_unique_memory("Private_Dirty: x kB\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn own_process_tree_and_memory() {
        let me = std::process::id();
        assert_eq!(process_tree(me)[0], me);
        let held = vec![1u8; 32 << 20];
        let bytes = unique_memory(me).unwrap();
        assert!(bytes >= 32 << 20, "{bytes}");
        assert_eq!(held.iter().map(|&b| b as usize).sum::<usize>(), 32 << 20);
        assert!(!sys::usable_cpus().is_empty());
        assert!(sys::usable_cpus().contains(&cpu_for_worker(0)));
    }
}
