//! `kifu.Game` and `kifu.read`: games streamed from the pipeline's
//! worker threads, replayed there, handed over a bounded channel.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use kifu::batch;
use kifu::formats::GameReader;
use kifu::record::row::{Column, Game as Row, Value};
use kifu::{GameRecord, Move, Opening, Report, Token};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::Board;
use crate::errors::Failure;
use crate::inputs::{self, Inputs};

/// One game as read and replayed: its moves, tags, recorded result, and
/// what the replay found (status, error, final board, score).
///
/// A game that breaks the rules is a ``Game`` with ``status ==
/// "invalid"`` and its ``error``; it never ends the stream.
///
/// >>> import kifu
/// >>> g = next(kifu.read(["fixtures/transcripts/example.txt"]))
/// >>> g.status, g.moves[:3]
/// ('complete', ['c4', 'e3', 'f5'])
#[pyclass(module = "kifu._kifu", name = "Game", frozen)]
pub struct Game {
    source: Arc<str>,
    record: GameRecord,
    report: Report,
    opening: Option<&'static Opening>,
}

impl Game {
    fn row(&self) -> Row<'_> {
        Row::new(&self.source, &self.record, &self.report).with_opening(self.opening)
    }

    fn value(&self, column: Column) -> Option<String> {
        match column.value(&self.row()) {
            Value::Null => None,
            v => Some(v.as_text().into_owned()),
        }
    }

    fn int(&self, column: Column) -> Option<u64> {
        match column.value(&self.row()) {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }
}

#[pymethods]
impl Game {
    /// The input it was read from, as given.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// Its 1-based number in that input.
    #[getter]
    fn index(&self) -> u64 {
        self.record.origin.index
    }

    /// Every move in order: squares as ``"f5"``, a pass (written or found
    /// by the replay) as ``None``. Past an illegal move, the tokens as
    /// written (an unreadable one as its text).
    #[getter]
    fn moves(&self) -> Vec<Option<String>> {
        let mut out = Vec::with_capacity(self.record.moves.len() + 2);
        for turn in self.record.plies(&self.report) {
            if turn.pass_before {
                out.push(None);
            }
            out.push(match turn.token {
                Token::Move(Move::Pass) => None,
                Token::Move(Move::Play(s)) => Some(s.to_string()),
                Token::Unreadable => Some(self.record.token_text(turn.index)),
            });
        }
        out
    }

    /// The moves as the table writes them: ``"f5d6c3..."``.
    #[getter]
    fn move_string(&self) -> String {
        self.row().moves()
    }

    /// ``"complete"``, ``"incomplete"`` or ``"invalid"``.
    #[getter]
    fn status(&self) -> String {
        self.report.status().to_string()
    }

    /// ``(move, reason)`` for an invalid game: the 1-based number of the
    /// first bad move token and why; ``None`` for a valid one.
    #[getter]
    fn error(&self) -> Option<(Option<usize>, String)> {
        let row = self.row();
        row.error().map(|e| (row.error_move(), e))
    }

    /// The line of the first bad move in a text input (``None`` in a
    /// binary one, or for a valid game).
    #[getter]
    fn error_line(&self) -> Option<u32> {
        let span = self.report.error.as_ref()?.span(&self.record)?;
        (span.line > 0).then_some(span.line)
    }

    /// Its column.
    #[getter]
    fn error_column(&self) -> Option<u32> {
        let span = self.report.error.as_ref()?.span(&self.record)?;
        (span.line > 0).then_some(span.column)
    }

    /// ``"black"``, ``"white"``, ``"draw"`` (a complete game, or the
    /// recorded result of an incomplete one), else ``None``.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.value(Column::Winner)
    }

    /// Black's and White's scores, empties to the winner (complete
    /// games).
    #[getter]
    fn black_score(&self) -> Option<u64> {
        self.int(Column::BlackScore)
    }

    /// See ``black_score``.
    #[getter]
    fn white_score(&self) -> Option<u64> {
        self.int(Column::WhiteScore)
    }

    /// Black's score as the record claims it, if it does.
    #[getter]
    fn recorded_black_score(&self) -> Option<u64> {
        self.int(Column::RecordedBlackScore)
    }

    /// The recorded result as written (``"34-30"``, ``"+2 (resigned)"``).
    #[getter]
    fn result(&self) -> Option<String> {
        self.value(Column::RecordedResult)
    }

    /// Black's name.
    #[getter]
    fn black(&self) -> Option<String> {
        self.record.tags.black.clone()
    }

    /// White's name.
    #[getter]
    fn white(&self) -> Option<String> {
        self.record.tags.white.clone()
    }

    /// The event.
    #[getter]
    fn event(&self) -> Option<String> {
        self.record.tags.event.clone()
    }

    /// The date, ISO 8601 (``"2004"``, ``"2004-05-12"``).
    #[getter]
    fn date(&self) -> Option<String> {
        self.value(Column::Date)
    }

    /// The opening's name (kifu's table of openings), if it reached one.
    #[getter]
    fn opening(&self) -> Option<&'static str> {
        self.opening.map(Opening::name)
    }

    /// Every tag: ``event``, ``date``, ``black``, ``white`` and the
    /// others the record holds.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let t = &self.record.tags;
        for (k, v) in [
            ("event", &t.event),
            ("site", &t.site),
            ("date", &t.date),
            ("round", &t.round),
            ("black", &t.black),
            ("white", &t.white),
            ("black_rating", &t.black_rating),
            ("white_rating", &t.white_rating),
        ] {
            if let Some(v) = v {
                d.set_item(k, v)?;
            }
        }
        for (k, v) in &t.extra {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The start position.
    #[getter]
    fn start(&self) -> Board {
        Board {
            position: self.record.start,
            last: None,
        }
    }

    /// The last legal position (the final board of a complete game).
    #[getter]
    fn board(&self) -> Board {
        let last = self
            .record
            .plies(&self.report)
            .filter(|t| t.legal)
            .filter_map(|t| match t.token {
                Token::Move(Move::Play(s)) => Some(s),
                _ => None,
            })
            .last();
        Board {
            position: self.report.finish.position,
            last,
        }
    }

    /// The game's row of the table (``kifu convert --to csv``), as a
    /// dict: column name to value (``None`` for an empty cell).
    fn row_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let row = self.row();
        for c in Column::ALL {
            match c.value(&row) {
                Value::Null => d.set_item(c.name(), py.None())?,
                Value::Int(n) => d.set_item(c.name(), n)?,
                v => d.set_item(c.name(), v.as_text().as_ref())?,
            }
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<kifu.Game {}:{} {} {} vs {}: {}>",
            self.source,
            self.record.origin.index,
            self.report.status(),
            self.record.tags.black.as_deref().unwrap_or("?"),
            self.record.tags.white.as_deref().unwrap_or("?"),
            self.row().moves()
        )
    }

    fn __len__(&self) -> usize {
        self.record.moves.len()
    }
}

/// What the reading thread sends.
enum Message {
    Games(Vec<Game>),
    Notes(Vec<String>),
    Failed(Failure),
}

/// The games of ``kifu.read``, one at a time; the reading goes on in
/// threads of its own, a few thousand games ahead at most.
#[pyclass(module = "kifu._kifu", name = "GameStream")]
pub struct GameStream {
    rx: Option<std::sync::Mutex<Receiver<Message>>>,
    ready: std::collections::VecDeque<Game>,
}

fn reading(inputs: Inputs, tx: SyncSender<Message>) {
    let selection = match inputs.selection(true) {
        Ok(s) => s,
        Err(f) => {
            let _ = tx.send(Message::Failed(f.into()));
            return;
        }
    };
    let unique = inputs.unique;
    let mut seen = batch::Seen::default();
    let result = inputs.each(|path, games: Box<dyn GameReader>, notes, _| {
        if !notes.is_empty() {
            let _ = tx.send(Message::Notes(notes));
        }
        let source: Arc<str> = Arc::from(path);
        let selection = &selection;
        batch::run(
            games,
            &inputs.options(),
            |records: Vec<GameRecord>| {
                let mut out = Vec::with_capacity(records.len());
                selection.replay_each(records, true, |record, (report, found)| {
                    if selection.filter.accepts(&record, &report, &found) {
                        out.push(Game {
                            source: Arc::clone(&source),
                            record,
                            report,
                            opening: found.opening,
                        });
                    }
                });
                out
            },
            |mut games: Vec<Game>| {
                if unique {
                    games.retain(|g| seen.first(kifu::record::select::duplicate_key(&g.record)));
                }
                tx.send(Message::Games(games))
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            },
        )
    });
    if let Err(f) = result {
        // A closed stream (the reader dropped) is no failure to tell.
        let closed = matches!(
            &f,
            kifu::jobs::JobError::Input { error: batch::BatchError::Sink(e), .. }
                if e.kind() == std::io::ErrorKind::BrokenPipe
        );
        if !closed {
            let _ = tx.send(Message::Failed(f.into()));
        }
    }
}

#[pymethods]
impl GameStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Game> {
        loop {
            if let Some(game) = self.ready.pop_front() {
                return Ok(game);
            }
            let Some(rx) = &self.rx else {
                return Err(PyStopIteration::new_err(()));
            };
            let message = py.detach(|| match rx.lock() {
                Ok(rx) => rx.recv().map_err(|_| ()),
                Err(_) => Err(()),
            });
            match message {
                Ok(Message::Games(games)) => self.ready.extend(games),
                Ok(Message::Notes(notes)) => inputs::warn(py, &notes)?,
                Ok(Message::Failed(f)) => {
                    self.rx = None;
                    return Err(f.into_py(py));
                }
                Err(_) => {
                    self.rx = None;
                    return Err(PyStopIteration::new_err(()));
                }
            }
        }
    }
}

/// Streams the games of one or more files (any format kifu reads,
/// compressed or not), each replayed and checked, as ``kifu.Game``
/// objects; see ``kifu.read``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, **filters))]
pub fn read(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    format: Option<&str>,
    filters: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameStream> {
    let inputs = inputs::inputs(py, paths, format, filters)?;
    // Two slices' games in the channel: memory bounded whatever the input.
    let (tx, rx) = sync_channel(2);
    std::thread::Builder::new()
        .name("kifu-read".into())
        .spawn(move || reading(inputs, tx))
        .map_err(|e| Failure::Other(format!("cannot start a thread: {e}")).into_py(py))?;
    Ok(GameStream {
        rx: Some(std::sync::Mutex::new(rx)),
        ready: std::collections::VecDeque::new(),
    })
}
