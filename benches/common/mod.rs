//! What the benchmarks share: the corpus folder, its WTHOR files, and a
//! CPU-time clock for criterion (`KIFU_BENCH_CLOCK=cpu`) on a machine
//! shared with other work.

// Each benchmark uses some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// The corpus folder: `KIFU_CORPUS`, else `../shared/corpus` beside the
/// crate; `None` when it is not there.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

/// Every `.wtb` under `dir`, at any depth, any case of extension, in name
/// order, appended to `out`.
pub fn wtb_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            wtb_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            out.push(path);
        }
    }
}

/// Whether `KIFU_BENCH_CLOCK=cpu` asks for CPU time (64-bit Linux only).
pub fn cpu_clock() -> bool {
    std::env::var("KIFU_BENCH_CLOCK").is_ok_and(|v| v == "cpu")
        && cfg!(all(target_os = "linux", target_pointer_width = "64"))
}

/// CPU time as criterion's clock: of the calling thread (a one-core
/// speed, whoever else runs) or of the whole process (every thread).
#[derive(Clone, Copy)]
pub enum CpuTime {
    /// `CLOCK_THREAD_CPUTIME_ID`.
    Thread,
    /// `CLOCK_PROCESS_CPUTIME_ID`.
    Process,
}

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        cpu_time(*self)
    }

    fn end(&self, start: Duration) -> Duration {
        cpu_time(*self).saturating_sub(start)
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, as for wall-clock time.
        const WALL: &WallTime = &WallTime;
        WALL.formatter()
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn cpu_time(clock: CpuTime) -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let id = match clock {
        CpuTime::Process => 2, // CLOCK_PROCESS_CPUTIME_ID
        CpuTime::Thread => 3,  // CLOCK_THREAD_CPUTIME_ID
    };
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` from the C library std links, with a
    // `struct timespec` laid out as on 64-bit Linux.
    let rc = unsafe { clock_gettime(id, &mut t) };
    assert_eq!(rc, 0, "clock_gettime({id}) failed");
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn cpu_time(_: CpuTime) -> Duration {
    unreachable!("CPU time is only read on 64-bit Linux (see cpu_clock)")
}
