//! The whole in-process pipeline of `kifu convert --to csv`: input bytes →
//! parse → replay → CSV bytes, through the batch pipeline.
//!
//! ```text
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench pipeline
//! KIFU_BENCH_CLOCK=cpu KIFU_CORPUS=/path/to/corpus cargo bench --bench pipeline
//! ```
//!
//! - `pipeline/wthor_to_csv`: the federation games of `wthor/WTH_*.wtb`
//!   (53,245) as one WTHOR file built in memory, named from WTH.JOU and
//!   WTH.TRN, as `scripts/make-big-wthor.py` builds `big.wtb`;
//! - `pipeline/ggf_to_csv`: the GGS games of `ggf/ntest-TestGames.ggf`
//!   repeated to 8 MB;
//! - `pipeline/transcript_to_csv`: the move lists of the Kaggle games
//!   (`csv/othello_dataset.csv`) as transcripts, repeated to 8 MB;
//! - `pipeline_1job/…`: the same with one worker thread instead of two.
//!
//! Throughput is given in games and in input bytes per second. The times
//! are wall-clock, since with two workers the elapsed time is what counts;
//! on a machine shared with other work, compare the ranges of several runs.
//! `KIFU_BENCH_CLOCK=cpu` times the CPU time of the whole process instead
//! (every thread of the pipeline; 64-bit Linux), which other work disturbs
//! far less: those results are named `pipeline_cpu/…` and
//! `pipeline_1job_cpu/…`, and their throughput is per CPU-second.
//! Skips with a message when the corpus is absent.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{Criterion, SamplingMode, Throughput};
use kifu::batch::{self, Choice, Options, SliceReport, Tally};
use kifu::formats::{wthor, Format, GameReader, TextWriter};
use kifu::record::select::Selection;

mod common;
use common::{corpus, CpuTime};

// The allocator of the kifu binary (src/main.rs), so that the pipeline
// allocates here as it does in `kifu convert`.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One input of the benchmarks, held in memory.
struct Input {
    /// The benchmark's name.
    bench: &'static str,
    /// The file name in the CSV's `source` column.
    source: &'static str,
    format: Format,
    bytes: Vec<u8>,
    /// WTHOR player and tournament names.
    names: Option<Arc<wthor::Names>>,
}

/// Converts `input` to CSV bytes the way `kifu convert --to csv` does:
/// `kifu::batch::convert` over the input's reader into a CSV writer (each
/// game replayed once, rows formatted in the workers, what CSV cannot keep
/// counted). Everything timed goes through here.
fn to_csv(input: &Input, jobs: usize) -> (Vec<u8>, Tally) {
    let reader: Box<dyn GameReader + '_> = match input.format {
        Format::Wthor => Box::new(wthor::Reader::new(&input.bytes[..], input.names.clone())),
        other => other.reader(&input.bytes[..]),
    };
    let options = Options {
        jobs,
        ..Options::default()
    };
    let mut writer = TextWriter::new(Format::Csv, Vec::new())
        .expect("writing to memory")
        .expect("CSV is text");
    let mut total = Tally::default();
    let selection = Selection::default();
    let choice = Choice {
        selection: &selection,
        unique: None,
        prepare: None,
    };
    batch::convert(
        reader,
        input.source,
        Format::Csv,
        &mut writer,
        &options,
        choice,
        |slice: &SliceReport| {
            total.merge(&slice.tally);
            black_box(slice.losses.len());
        },
    )
    .expect("the corpus games convert");
    (writer.into_inner(), total)
}

/// `lines`, one a line, repeated to at least `bytes` bytes.
fn repeat_to(lines: &[&str], bytes: usize) -> Vec<u8> {
    let block: String = lines.iter().map(|l| format!("{l}\n")).collect();
    block.repeat(bytes / block.len() + 1).into_bytes()
}

/// The federation games as one WTHOR file, with the header that
/// `scripts/make-big-wthor.py` gives `big.wtb`.
fn federation(dir: &Path) -> Input {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("wthor"))
        .expect("corpus wthor/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("WTH_") && n.ends_with(".wtb"))
        })
        .collect();
    paths.sort();
    let mut records = Vec::new();
    for path in &paths {
        let file = std::fs::read(path).expect("corpus WTHOR file");
        let count = u32::from_le_bytes(file[4..8].try_into().expect("4 bytes"));
        records.extend_from_slice(&file[16..16 + 68 * count as usize]);
    }
    let header = wthor::Header {
        created: (20, 26, 11, 21),
        games: (records.len() / 68) as u32,
        board_size: 8,
        depth: 24,
        ..wthor::Header::default()
    };
    let mut bytes = header.to_bytes().to_vec();
    bytes.extend_from_slice(&records);
    let names = wthor::Names::load(
        Some(&dir.join("wthor/WTH.JOU")),
        Some(&dir.join("wthor/WTH.TRN")),
    )
    .expect("corpus WTH.JOU and WTH.TRN");
    Input {
        bench: "wthor_to_csv",
        source: "big.wtb",
        format: Format::Wthor,
        bytes,
        names: Some(Arc::new(names)),
    }
}

fn inputs(dir: &Path) -> Vec<Input> {
    let ggs = std::fs::read_to_string(dir.join("ggf/ntest-TestGames.ggf")).expect("GGS games");
    let ggs: Vec<&str> = ggs.lines().filter(|l| !l.trim().is_empty()).collect();
    let kaggle = std::fs::read_to_string(dir.join("csv/othello_dataset.csv")).expect("Kaggle CSV");
    let moves: Vec<&str> = kaggle
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(2))
        .collect();
    vec![
        federation(dir),
        Input {
            bench: "ggf_to_csv",
            source: "big.ggf",
            format: Format::Ggf,
            bytes: repeat_to(&ggs, 8 << 20),
            names: None,
        },
        Input {
            bench: "transcript_to_csv",
            source: "big.txt",
            format: Format::Transcript,
            bytes: repeat_to(&moves, 8 << 20),
            names: None,
        },
    ]
}

fn bench<M: Measurement>(c: &mut Criterion<M>, inputs: &[Input], suffix: &str) {
    for (group, jobs) in [("pipeline", 2), ("pipeline_1job", 1)] {
        let mut group = c.benchmark_group(format!("{group}{suffix}"));
        // One conversion takes tens of milliseconds: time whole ones.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(20);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        for input in inputs {
            let (csv, tally) = to_csv(input, jobs);
            if jobs == 2 {
                eprintln!(
                    "{}: {} games, {} bytes in, {} bytes of CSV out; {} complete, {} incomplete, {} invalid",
                    input.bench,
                    tally.read,
                    input.bytes.len(),
                    csv.len(),
                    tally.complete,
                    tally.incomplete,
                    tally.invalid
                );
            }
            group.throughput(Throughput::ElementsAndBytes {
                elements: tally.read,
                bytes: input.bytes.len() as u64,
            });
            group.bench_function(input.bench, |b| {
                b.iter(|| black_box(to_csv(black_box(input), jobs)));
            });
        }
        group.finish();
    }
}

fn main() {
    let Some(dir) = corpus() else {
        eprintln!("corpus not found (set KIFU_CORPUS): skipping the pipeline benchmarks");
        return;
    };
    let inputs = inputs(&dir);
    let cpu = std::env::var("KIFU_BENCH_CLOCK").is_ok_and(|v| v == "cpu");
    if common::cpu_clock() {
        eprintln!("timing the CPU time of the process (KIFU_BENCH_CLOCK=cpu)");
        let mut c = Criterion::default()
            .with_measurement(CpuTime::Process)
            .configure_from_args();
        bench(&mut c, &inputs, "_cpu");
        c.final_summary();
    } else {
        if cpu {
            eprintln!("note: process CPU time needs 64-bit Linux; timing wall-clock time");
        }
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c, &inputs, "");
        c.final_summary();
    }
}
