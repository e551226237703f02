//! `cputime`: the CPU time the engine process has used, in seconds, as
//! gogui-twogtp and gogui-regress ask for it.
//!
//! Read from `/proc/self/stat` (user plus system time of every thread of
//! the process), so no `unsafe` call is needed; the kernel counts it in
//! ticks of 1/100 s (USER_HZ, fixed at 100 in Linux's user ABI).

/// Ticks per second of the `utime`/`stime` fields.
const USER_HZ: f64 = 100.0;

/// User plus system seconds from the text of a `/proc/<pid>/stat` file.
fn seconds_from_stat(stat: &str) -> Option<f64> {
    // The command name (field 2) is in parentheses and may hold spaces or
    // parentheses itself: the fields after it start at the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the
    // name, counting from 0 at field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / USER_HZ)
}

/// The process's CPU seconds so far.
pub fn seconds() -> Option<f64> {
    seconds_from_stat(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_user_plus_system_time_past_an_odd_command_name() {
        let stat = "4242 (warp (x) stone) R 1 2 3 4 5 6 7 8 9 10 250 125 0 0 20 0 9 0 100";
        assert_eq!(seconds_from_stat(stat), Some(3.75));
        assert_eq!(seconds_from_stat("4242 (x) R 1 2"), None);
        assert_eq!(seconds_from_stat("garbage"), None);
    }

    #[test]
    fn the_process_has_used_some_time_and_it_only_grows() {
        let before = seconds().expect("readable on Linux");
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let after = seconds().unwrap();
        assert!(before >= 0.0 && after >= before);
    }
}
