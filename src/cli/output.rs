//! Writing outputs without ever losing a file.
//!
//! Every file kifu writes goes first to a temporary file beside it,
//! `.NAME.kifu-PID.tmp`, and is renamed over `NAME` only when the run
//! succeeds ([`AtomicFile::commit`]). A failed run drops the temporary; an
//! interrupted one (Ctrl-C, SIGTERM, SIGHUP) removes it in the signal
//! handler; a killed one leaves it, and the next run that writes `NAME`
//! removes it once its process is gone. Either way an earlier `NAME` is
//! untouched until the rename.
//!
//! An output that is a symbolic link is written where the link leads (the
//! temporary beside that file), so the link stays. An output that is not
//! a regular file (`/dev/null`, `/dev/stdout`, a named pipe, the
//! `/dev/fd/N` of a shell's `>(…)`) is written straight into, as standard
//! output is: renaming a file over it would replace the device or pipe.
//!
//! [`refuse_inputs_as_outputs`] refuses, before anything is read, an output
//! that is one of the inputs (the same file by device and inode, whatever
//! the path or link).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

/// Temporaries of this process not yet renamed into place, for the signal
/// handler to remove.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What an interrupt does instead, for a command that stops cleanly by
/// itself (`kifu serve`): see [`on_interrupt`].
type Hook = Box<dyn Fn() + Send + Sync>;
static INTERRUPT_HOOK: std::sync::OnceLock<Hook> = std::sync::OnceLock::new();

/// Has SIGINT, SIGTERM and SIGHUP call `hook` instead of removing the
/// temporaries and exiting (a command that writes no file and stops by
/// itself); `false` when a hook was set already.
pub fn on_interrupt(hook: impl Fn() + Send + Sync + 'static) -> bool {
    INTERRUPT_HOOK.set(Box::new(hook)).is_ok()
}

/// Removes this run's temporaries and exits on SIGINT, SIGTERM or SIGHUP,
/// so that an interrupted run leaves no partial output behind.
pub fn install_signal_handler() {
    // Without a handler (it cannot be installed twice, or the platform has
    // none) the temporaries are still removed by the next run.
    let _ = ctrlc::set_handler(|| {
        if let Some(hook) = INTERRUPT_HOOK.get() {
            hook();
            return;
        }
        remove_pending();
        eprintln!("kifu: interrupted; no output was written");
        std::process::exit(130);
    });
}

fn remove_pending() {
    let pending = match PENDING.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    for path in pending.iter() {
        let _ = std::fs::remove_file(path);
    }
}

fn register(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.retain(|p| p != path);
    }
}

/// The folder of `path` (`.` for a bare file name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The prefix of every temporary for `name`.
fn temp_prefix(name: &str) -> String {
    format!(".{name}.kifu-")
}

/// Whether a process with this id is running (where that can be told;
/// elsewhere a temporary is taken as stray only when a day old).
fn process_alive(pid: u32, temp: &Path) -> bool {
    if Path::new("/proc/self").exists() {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    let age = std::fs::metadata(temp)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok());
    age.is_none_or(|a| a.as_secs() < 86_400)
}

/// Removes the temporaries of `target` left by killed runs, saying so.
fn clean_strays(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let prefix = temp_prefix(name);
    let Ok(entries) = std::fs::read_dir(folder(target)) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let Some(pid) = file_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let path = entry.path();
        if pid != std::process::id()
            && !process_alive(pid, &path)
            && std::fs::remove_file(&path).is_ok()
        {
            eprintln!(
                "kifu: note: removed {}, left by an interrupted run",
                path.display()
            );
        }
    }
}

/// The most symbolic links followed from an output's name (Linux's own
/// limit for a path).
const MAX_LINKS: usize = 40;

/// Where an output goes.
enum Destination {
    /// A regular file (or none yet) at the end of the target's symbolic
    /// links (each relative to the folder of the link): replaced by a
    /// temporary beside it.
    Replace(PathBuf),
    /// A device, a pipe or a socket, or a process's open file
    /// (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`): written as it is.
    InPlace,
}

impl Destination {
    fn of(target: &Path) -> Destination {
        if std::fs::metadata(target).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            return Destination::InPlace;
        }
        let mut path = target.to_path_buf();
        for _ in 0..MAX_LINKS {
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    if is_descriptor_link(&path) {
                        return Destination::InPlace;
                    }
                    match std::fs::read_link(&path) {
                        Ok(to) => path = folder(&path).join(to),
                        Err(_) => break,
                    }
                }
                // A loop of links ends at the limit and is left for
                // opening the file to report.
                _ => break,
            }
        }
        Destination::Replace(path)
    }
}

/// Whether the link is one of a process's open files (in `/proc`, as
/// `/dev/stdout` and `/dev/fd` lead to): renaming over it would replace
/// the file the shell opened (and lose what `>>` kept) or fail.
fn is_descriptor_link(link: &Path) -> bool {
    std::fs::canonicalize(folder(link)).is_ok_and(|dir| dir.starts_with("/proc"))
}

/// A file written under a temporary name and renamed into place by
/// [`AtomicFile::commit`]; dropped uncommitted, it leaves no trace. A
/// target that is not a regular file (a device, a pipe) is written in
/// place instead: what was written has gone out, as on standard output.
pub struct AtomicFile {
    /// The name given, for messages.
    target: PathBuf,
    /// The temporary and the file it replaces (at the end of the
    /// target's links); `None` when the target is written in place.
    temp: Option<(PathBuf, PathBuf)>,
    out: Option<BufWriter<File>>,
    committed: bool,
    early: Option<EarlySync>,
}

/// Puts a big output on its way to the disk while it is written: every
/// [`EarlySync::EVERY`] bytes a thread of its own syncs what was written
/// so far, so that the sync before the rename has little left to do.
struct EarlySync {
    /// Asks for a sync; one waits at most (asks while one runs merge).
    ask: std::sync::mpsc::SyncSender<()>,
    thread: std::thread::JoinHandle<()>,
    written: u64,
    next: u64,
}

impl EarlySync {
    const EVERY: u64 = 32 << 20;

    /// The thread that syncs `file` (a handle of its own on the output)
    /// when asked, until the output is committed or dropped.
    fn start(file: File) -> Option<EarlySync> {
        let (ask, asked) = std::sync::mpsc::sync_channel::<()>(1);
        let thread = std::thread::Builder::new()
            .name("kifu-sync".into())
            .spawn(move || {
                for () in asked {
                    // A failure shows again in the sync before the rename.
                    let _ = file.sync_data();
                }
            })
            .ok()?;
        Some(EarlySync {
            ask,
            thread,
            written: 0,
            next: EarlySync::EVERY,
        })
    }

    fn wrote(&mut self, bytes: usize) {
        self.written += bytes as u64;
        if self.written >= self.next {
            self.next = self.written + EarlySync::EVERY;
            let _ = self.ask.try_send(());
        }
    }

    /// Waits for the sync under way, if any.
    fn finish(self) {
        drop(self.ask);
        let _ = self.thread.join();
    }
}

impl AtomicFile {
    /// Starts writing `target`: a new temporary beside it (beside the
    /// file its links lead to), or `target` itself when it is a device or
    /// a pipe. Fails when the folder is missing or not writable, or
    /// `target` is a folder.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        if target.is_dir() {
            bail!("cannot write {}: is a directory", target.display());
        }
        let real = match Destination::of(target) {
            Destination::Replace(real) => real,
            Destination::InPlace => return AtomicFile::in_place(target),
        };
        let name = real
            .file_name()
            .and_then(|n| n.to_str())
            .with_context(|| format!("cannot write {}: not a file name", target.display()))?;
        clean_strays(&real);
        let temp = folder(&real).join(format!("{}{}.tmp", temp_prefix(name), std::process::id()));
        register(&temp);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temp);
        let file = match file {
            Ok(f) => f,
            Err(e) => {
                unregister(&temp);
                return Err(e).with_context(|| format!("cannot write {}", target.display()));
            }
        };
        let early = file.try_clone().ok().and_then(EarlySync::start);
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp: Some((temp, real)),
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            committed: false,
            early,
        })
    }

    /// Opens a device, a pipe or an open file to write into as it is:
    /// appended to, never truncated, synced or renamed (a pipe waits for
    /// its reader here; a file the shell opened with `>` is empty, one it
    /// opened with `>>` keeps what it held).
    fn in_place(target: &Path) -> Result<AtomicFile> {
        let file = OpenOptions::new()
            .append(true)
            .open(target)
            .with_context(|| format!("cannot write {}", target.display()))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp: None,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            committed: false,
            early: None,
        })
    }

    /// Whether the output can be sought back into to finish it: a file
    /// of its own, not one written in place.
    #[must_use]
    pub fn seekable(&self) -> bool {
        self.temp.is_some()
    }

    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    fn out(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.out
            .as_mut()
            .ok_or_else(|| io::Error::other("the output is already closed"))
    }

    /// Flushes the data to disk and renames the file into place (a
    /// device or pipe is only flushed).
    pub fn commit(mut self) -> Result<()> {
        let out = self.out.take();
        if let Some(early) = self.early.take() {
            early.finish();
        }
        let result = (|| -> io::Result<()> {
            let file = match out {
                Some(out) => Some(out.into_inner().map_err(io::IntoInnerError::into_error)?),
                None => None,
            };
            let Some((temp, real)) = &self.temp else {
                return Ok(());
            };
            if let Some(file) = file {
                // The file that is replaced keeps its permissions.
                if let Ok(meta) = std::fs::metadata(real) {
                    file.set_permissions(meta.permissions())?;
                }
                file.sync_all()?;
            }
            std::fs::rename(temp, real)
        })();
        result.with_context(|| format!("cannot write {}", self.target.display()))?;
        self.committed = true;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out()?.write(buf)?;
        if let Some(early) = &mut self.early {
            early.wrote(n);
        }
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        write_through(self.out()?, buf)?;
        if let Some(early) = &mut self.early {
            early.wrote(buf.len());
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out()?.flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        if !self.seekable() {
            return Err(io::Error::other(format!(
                "{} is a device, a pipe or an open file: it is written straight through and \
                 cannot be sought back into",
                self.target.display()
            )));
        }
        self.out()?.seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        let Some((temp, _)) = &self.temp else {
            return;
        };
        if !self.committed {
            self.out = None;
            let _ = std::fs::remove_file(temp);
        }
        unregister(temp);
    }
}

/// Pieces at least this long skip the buffer ([`write_through`]).
const THROUGH: usize = 16 << 10;

/// Writes `buf` after what `out` holds: a large piece (a slice's formatted
/// games, 60 KB of CSV) straight to the writer under the buffer, for a
/// copy through the buffer would pass over every byte of the output once
/// more; a small one into the buffer.
fn write_through<W: Write>(out: &mut BufWriter<W>, buf: &[u8]) -> io::Result<()> {
    if buf.len() < THROUGH {
        return out.write_all(buf);
    }
    out.flush()?;
    out.get_mut().write_all(buf)
}

/// A scratch file in the system's temporary folder, removed when dropped
/// (or by the signal handler): where an output that must be finished by
/// seeking back waits before it is copied to a pipe.
pub struct Scratch {
    path: PathBuf,
    file: File,
}

impl Scratch {
    /// Creates a new scratch file named after `what`.
    pub fn create(what: &str) -> Result<Scratch> {
        let path = std::env::temp_dir().join(format!(".kifu-{what}-{}.tmp", std::process::id()));
        register(&path);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path);
        match file {
            Ok(file) => Ok(Scratch { path, file }),
            Err(e) => {
                unregister(&path);
                Err(e).with_context(|| format!("cannot write {}", path.display()))
            }
        }
    }

    /// The file, to write, seek and read back.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        unregister(&self.path);
    }
}

/// A command's data output: a file written atomically, or standard output.
pub enum Output {
    /// `-o FILE`.
    File(AtomicFile),
    /// Standard output.
    Stdout(BufWriter<io::Stdout>),
}

impl Output {
    /// Opens `path`, or standard output when there is none.
    pub fn open(path: Option<&Path>) -> Result<Output> {
        Ok(match path {
            Some(path) => Output::File(AtomicFile::create(path)?),
            None => Output::Stdout(BufWriter::with_capacity(1 << 16, io::stdout())),
        })
    }

    /// Ends the output: flushes standard output, or renames the file into
    /// place.
    pub fn commit(self) -> Result<()> {
        match self {
            Output::File(file) => file.commit(),
            Output::Stdout(mut out) => Ok(out.flush()?),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::File(f) => f.write(buf),
            Output::Stdout(o) => o.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::File(f) => f.write_all(buf),
            Output::Stdout(o) => write_through(o, buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::File(f) => f.flush(),
            Output::Stdout(o) => o.flush(),
        }
    }
}

/// Refuses to write a binary format (`what`: npy, parquet) to standard
/// output when it is a terminal (`stdout_is_terminal`) and no `-o` was
/// given: a usage error naming `-o`.
pub fn refuse_binary_on_terminal(
    what: &str,
    output: Option<&Path>,
    stdout_is_terminal: bool,
) -> Result<()> {
    if output.is_none() && stdout_is_terminal {
        bail!(
            "-o: {what} is binary and standard output is a terminal: write to a file with \
             -o OUT, or into a pipe"
        );
    }
    Ok(())
}

/// Where a file lives on its device: equal ids are the same file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId {
    device: u64,
    inode: u64,
}

#[cfg(unix)]
fn id_of(meta: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId {
        device: meta.dev(),
        inode: meta.ino(),
    })
}

#[cfg(not(unix))]
fn id_of(_meta: &std::fs::Metadata) -> Option<FileId> {
    None
}

/// The id of a named file, or of standard input/output behind `-`.
fn file_id(name: &Path, stdio: Stdio) -> Option<FileId> {
    if name.as_os_str() == "-" {
        return stdio_id(stdio);
    }
    let meta = std::fs::metadata(name).ok()?;
    if !meta.is_file() {
        return None;
    }
    id_of(&meta)
}

#[derive(Clone, Copy)]
enum Stdio {
    In,
    Out,
}

#[cfg(unix)]
fn stdio_id(stdio: Stdio) -> Option<FileId> {
    use std::os::fd::AsFd;
    let fd = match stdio {
        Stdio::In => io::stdin().as_fd().try_clone_to_owned().ok()?,
        Stdio::Out => io::stdout().as_fd().try_clone_to_owned().ok()?,
    };
    let meta = File::from(fd).metadata().ok()?;
    // Only a regular file can be both read and written here; a terminal or
    // a pipe is never "the same file".
    if !meta.is_file() {
        return None;
    }
    id_of(&meta)
}

#[cfg(not(unix))]
fn stdio_id(_stdio: Stdio) -> Option<FileId> {
    None
}

/// A file a command will write: a path, or standard output.
pub enum Target<'a> {
    /// A named output file.
    File(&'a Path),
    /// Standard output (when it is redirected to a file).
    Stdout,
}

/// Refuses to run when an output is one of the inputs: the same file by
/// device and inode, however each is named (links included), standard
/// input and output too when they are files.
pub fn refuse_inputs_as_outputs(inputs: &[String], outputs: &[Target<'_>]) -> Result<()> {
    for output in outputs {
        let (out_name, out_id) = match output {
            Target::File(path) => (path.display().to_string(), file_id(path, Stdio::Out)),
            Target::Stdout => ("standard output".to_owned(), stdio_id(Stdio::Out)),
        };
        let Some(out_id) = out_id else { continue };
        for input in inputs {
            if file_id(Path::new(input), Stdio::In) == Some(out_id) {
                let input = if input == "-" {
                    "standard input"
                } else {
                    input
                };
                bail!(
                    "the output {out_name} is the input {input} (the same file): \
                     write to another file; nothing was read or written"
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_pieces_skip_the_buffer_and_keep_their_place() {
        let pieces: Vec<Vec<u8>> = [3, THROUGH + 5, 1, 7, THROUGH, 2 * THROUGH, 0, 9]
            .iter()
            .enumerate()
            .map(|(i, &n)| vec![b'a' + i as u8; n])
            .collect();
        let mut out = BufWriter::with_capacity(64, Vec::new());
        for piece in &pieces {
            write_through(&mut out, piece).unwrap();
        }
        // The large pieces went under the buffer: only the last small one
        // waits in it.
        assert_eq!(out.buffer(), &pieces[7][..]);
        let written = out.into_inner().unwrap();
        assert_eq!(written, pieces.concat());
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kifu-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_uncommitted_file_leaves_the_old_one_and_no_temporary() {
        let dir = scratch("drop");
        let target = dir.join("out.txt");
        std::fs::write(&target, "old").unwrap();
        {
            let mut file = AtomicFile::create(&target).unwrap();
            file.write_all(b"new, half written").unwrap();
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_committed_file_replaces_the_old_one() {
        let dir = scratch("commit");
        let target = dir.join("out.txt");
        std::fs::write(&target, "old").unwrap();
        let mut file = AtomicFile::create(&target).unwrap();
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_big_output_synced_on_the_way_is_whole_after_commit_or_gone_after_drop() {
        let dir = scratch("early");
        let target = dir.join("big.txt");
        // Past two early syncs, in writes of both kinds.
        let block: Vec<u8> = (0..1 << 20).map(|i| (i % 251) as u8).collect();
        let blocks = 2 * (EarlySync::EVERY >> 20) + 3;
        for commit in [false, true] {
            let mut file = AtomicFile::create(&target).unwrap();
            for i in 0..blocks {
                if i % 2 == 0 {
                    file.write_all(&block).unwrap();
                } else {
                    let n = file.write(&block).unwrap();
                    file.write_all(&block[n..]).unwrap();
                }
            }
            if commit {
                file.commit().unwrap();
            }
        }
        let written = std::fs::read(&target).unwrap();
        assert_eq!(written.len() as u64, blocks << 20);
        assert!(written.chunks(1 << 20).all(|b| b == block));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    /// Where each target goes, found without writing anything (a test
    /// that wrote `/dev/null` would replace the machine's if it failed).
    #[cfg(unix)]
    #[test]
    fn devices_pipes_and_open_files_are_written_in_place_links_followed() {
        let in_place = |p: &Path| matches!(Destination::of(p), Destination::InPlace);
        let replaced = |p: &Path| match Destination::of(p) {
            Destination::Replace(real) => real,
            Destination::InPlace => panic!("{} written in place", p.display()),
        };
        assert!(in_place(Path::new("/dev/null")));
        if Path::new("/proc/self/fd").is_dir() {
            // Standard output and descriptors, whatever they are open on.
            assert!(in_place(Path::new("/dev/stdout")));
            assert!(in_place(Path::new("/proc/self/fd/2")));
        }
        let dir = scratch("destination");
        let file = dir.join("real.csv");
        std::fs::write(&file, "old").unwrap();
        assert_eq!(replaced(&file), file);
        let missing = dir.join("new.csv");
        assert_eq!(replaced(&missing), missing);
        // A chain of links, relative and absolute, and one to nothing yet.
        std::os::unix::fs::symlink("real.csv", dir.join("a.csv")).unwrap();
        std::os::unix::fs::symlink(dir.join("a.csv"), dir.join("b.csv")).unwrap();
        assert_eq!(replaced(&dir.join("b.csv")), dir.join("real.csv"));
        std::os::unix::fs::symlink("later.csv", dir.join("c.csv")).unwrap();
        assert_eq!(replaced(&dir.join("c.csv")), dir.join("later.csv"));
        // A loop ends at the limit, for opening to report.
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
        let end = replaced(&dir.join("loop1"));
        assert!(
            end.ends_with("loop1") || end.ends_with("loop2"),
            "{}",
            end.display()
        );
        // A named pipe.
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(in_place(&fifo));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_kept_and_the_file_it_leads_to_replaced() {
        let dir = scratch("link");
        std::fs::write(dir.join("real.csv"), "old").unwrap();
        std::os::unix::fs::symlink("real.csv", dir.join("link.csv")).unwrap();
        let mut file = AtomicFile::create(&dir.join("link.csv")).unwrap();
        assert!(file.seekable());
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert!(std::fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::read_to_string(dir.join("real.csv")).unwrap(),
            "new"
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    }

    #[test]
    fn a_stray_temporary_of_a_dead_process_is_removed() {
        let dir = scratch("stray");
        let target = dir.join("out.csv");
        // No process has this id on Linux (pid_max is at most 2^22).
        let stray = dir.join(".out.csv.kifu-4294967295.tmp");
        std::fs::write(&stray, "partial").unwrap();
        let other = dir.join(".other.csv.kifu-4294967295.tmp");
        std::fs::write(&other, "someone else's").unwrap();
        AtomicFile::create(&target).unwrap().commit().unwrap();
        assert!(!stray.exists());
        assert!(other.exists(), "only temporaries of this output go");
    }

    #[test]
    fn binary_output_is_refused_on_a_terminal_only() {
        let err = refuse_binary_on_terminal("npy", None, true)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("-o: npy is binary"), "{err}");
        refuse_binary_on_terminal("npy", None, false).unwrap();
        refuse_binary_on_terminal("parquet", Some(Path::new("p.parquet")), true).unwrap();
    }

    #[test]
    fn the_same_file_under_another_name_is_refused() {
        let dir = scratch("same");
        let input = dir.join("games.txt");
        std::fs::write(&input, "f5d6\n").unwrap();
        let link = dir.join("link.txt");
        std::fs::hard_link(&input, &link).unwrap();
        let inputs = vec![input.display().to_string()];
        let err = refuse_inputs_as_outputs(&inputs, &[Target::File(&link)]).unwrap_err();
        assert!(err.to_string().contains("is the input"), "{err}");
        let other = dir.join("other.txt");
        std::fs::write(&other, "").unwrap();
        refuse_inputs_as_outputs(&inputs, &[Target::File(&other)]).unwrap();
        refuse_inputs_as_outputs(&inputs, &[Target::File(&dir.join("new.txt"))]).unwrap();
    }
}
