//! `kifu.Board`: a position and the side to move, with the rules of the
//! library.

use kifu::render::text::{diagram, TextStyle};
use kifu::{Color, Position, Square, Symmetry};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::Failure;

/// An 8x8 Othello board and the side to move.
///
/// Squares are named ``"a1"`` (top left) to ``"h8"`` or given as an index
/// 0-63 (a1 = 0, b1 = 1, ..., h8 = 63); bitboards are Python ints with bit
/// i for square i. The rules are the command line's: a side with no move
/// must pass, the game ends when neither can move.
///
/// >>> import kifu
/// >>> b = kifu.Board()
/// >>> b.legal_moves()
/// ['d3', 'c4', 'f5', 'e6']
/// >>> b.play("f5")
/// 1
/// >>> b.side_to_move, b.discs()
/// ('white', (4, 1))
#[pyclass(module = "kifu._kifu", name = "Board")]
#[derive(Clone)]
pub struct Board {
    pub position: Position,
    pub last: Option<Square>,
}

pub fn square_arg(obj: &Bound<'_, PyAny>) -> PyResult<Square> {
    let py = obj.py();
    if let Ok(i) = obj.extract::<i64>() {
        return u8::try_from(i)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| Failure::usage("square", format!("{i} is not 0 to 63")).into_py(py));
    }
    let text: String = obj.extract().map_err(|_| {
        Failure::usage("square", "give a name such as \"f5\" or an index 0-63").into_py(py)
    })?;
    text.parse::<Square>()
        .map_err(|e| Failure::usage("square", e.to_string()).into_py(py))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[pymethods]
impl Board {
    /// The start position, or a board given as 64 squares (``X`` black,
    /// ``O`` white, ``-`` empty) and the side to move (``X`` or ``O``),
    /// as transcripts and the CSV ``start`` column write it.
    #[new]
    #[pyo3(signature = (text=None))]
    fn new(text: Option<&str>) -> PyResult<Board> {
        let position = match text {
            None => Position::start(),
            Some(t) => t.parse::<Position>().map_err(|e| {
                Python::attach(|py| Failure::usage("text", e.to_string()).into_py(py))
            })?,
        };
        Ok(Board {
            position,
            last: None,
        })
    }

    /// The board after `moves` from the start (``"f5d6c3"``, passes left
    /// out or written ``pass``); an illegal move raises
    /// ``kifu.IllegalMoveError``.
    #[staticmethod]
    fn from_moves(moves: &str) -> PyResult<Board> {
        let mut board = Board {
            position: Position::start(),
            last: None,
        };
        let record = kifu::formats::transcript::parse_line(
            moves.as_bytes(),
            kifu::formats::transcript::LineContext {
                line: 1,
                byte: 0,
                index: 1,
            },
        )
        .ok_or_else(|| {
            Python::attach(|py| Failure::usage("moves", "no moves in the text").into_py(py))
        })?;
        let report = record.replay();
        if let Some(error) = &report.error {
            return Err(Python::attach(|py| {
                Failure::Illegal {
                    message: format!("{moves}: {error}"),
                }
                .into_py(py)
            }));
        }
        board.position = report.finish.position;
        board.last = record.moves.iter().rev().find_map(|m| match m.token {
            kifu::Token::Move(kifu::Move::Play(s)) => Some(s),
            _ => None,
        });
        Ok(board)
    }

    /// ``"black"`` or ``"white"``.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.position.side_to_move())
    }

    /// Black's discs as a bitboard.
    #[getter]
    fn black(&self) -> u64 {
        self.position.board().black().0
    }

    /// White's discs as a bitboard.
    #[getter]
    fn white(&self) -> u64 {
        self.position.board().white().0
    }

    /// The discs of the side to move.
    #[getter]
    fn player(&self) -> u64 {
        self.position.relative().0
    }

    /// The discs of the other side.
    #[getter]
    fn opponent(&self) -> u64 {
        self.position.relative().1
    }

    /// The last square played on this board, if any.
    #[getter]
    fn last_move(&self) -> Option<String> {
        self.last.map(|s| s.to_string())
    }

    /// The squares the side to move may play, in index order.
    fn legal_moves(&self) -> Vec<String> {
        self.position
            .legal_moves()
            .into_iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// The legal moves as a bitboard.
    fn legal_mask(&self) -> u64 {
        self.position.legal_moves().0
    }

    /// The discs a move on ``square`` would flip, as a bitboard (0 when
    /// it flips none).
    fn flips(&self, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.position.flips(square_arg(square)?).0)
    }

    /// Plays ``square`` for the side to move; returns how many discs it
    /// flipped. An illegal move raises ``kifu.IllegalMoveError`` and
    /// leaves the board unchanged.
    fn play(&mut self, square: &Bound<'_, PyAny>) -> PyResult<u32> {
        let sq = square_arg(square)?;
        match self.position.play(sq) {
            Ok(flipped) => {
                self.last = Some(sq);
                Ok(flipped.count())
            }
            Err(e) => Err(Failure::Illegal {
                message: format!("{} {sq}: {e}", color_name(self.position.side_to_move())),
            }
            .into_py(square.py())),
        }
    }

    /// Passes; only where the side to move has no move
    /// (``kifu.IllegalMoveError`` otherwise).
    fn pass_(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.position.has_moves() || self.position.is_game_over() {
            let why = if self.position.is_game_over() {
                "the game is over".to_owned()
            } else {
                format!(
                    "pass not allowed: {} has moves",
                    color_name(self.position.side_to_move())
                )
            };
            return Err(Failure::Illegal { message: why }.into_py(py));
        }
        self.position.pass();
        Ok(())
    }

    /// Whether the side to move must pass (it has no move, the other
    /// side has one).
    fn must_pass(&self) -> bool {
        !self.position.has_moves() && !self.position.is_game_over()
    }

    /// Whether neither side can move.
    fn is_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// Discs on the board: ``(black, white)``.
    fn discs(&self) -> (u32, u32) {
        let b = self.position.board();
        (b.black().count(), b.white().count())
    }

    /// The score with empty squares to the winner (the World Othello
    /// Federation rule WTHOR stores): ``(black, white)``; a draw with
    /// empties is 32-32.
    fn score(&self) -> (u8, u8) {
        let s = kifu::Score::of(self.position.board());
        (s.black_score, s.white_score)
    }

    /// Two planes of 8x8 (uint8): the side to move's discs, then the other
    /// side's; ``[plane, row, column]`` with a1 at ``[0, 0]``.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (p, o) = self.position.relative();
        let mut v = Vec::with_capacity(128);
        for bits in [p, o] {
            v.extend((0..64).map(|i| ((bits >> i) & 1) as u8));
        }
        let arr = PyArray1::from_vec(py, v);
        Ok(arr.reshape([2, 8, 8])?.into_any())
    }

    /// The board under symmetry ``k`` (0 the identity, 1-7 the rotations
    /// and reflections, in the library's order).
    fn transform(&self, k: usize) -> PyResult<Board> {
        let Some(sym) = Symmetry::ALL.get(k) else {
            return Err(Python::attach(|py| {
                Failure::usage("k", format!("{k}: a symmetry is 0 to 7")).into_py(py)
            }));
        };
        Ok(Board {
            position: self.position.transform(*sym),
            last: self.last.map(|s| s.transform(*sym)),
        })
    }

    /// The 8 symmetric images of the board, the identity first.
    fn symmetries(&self) -> Vec<Board> {
        Symmetry::ALL
            .iter()
            .map(|sym| Board {
                position: self.position.transform(*sym),
                last: self.last.map(|s| s.transform(*sym)),
            })
            .collect()
    }

    /// A copy.
    fn copy(&self) -> Board {
        self.clone()
    }

    /// The board as 64 squares and the side to move (``X``/``O``/``-``).
    fn to_text(&self) -> String {
        self.position.to_string()
    }

    /// The diagram ``kifu show`` draws: legal moves marked, the last move
    /// in brackets; ``ascii=True`` draws ``X``, ``O``, ``-`` and ``.``.
    #[pyo3(signature = (ascii=false))]
    fn diagram(&self, ascii: bool) -> String {
        diagram(
            &self.position,
            &TextStyle {
                ascii,
                legal_moves: true,
                last_move: self.last,
            },
        )
    }

    fn __str__(&self) -> String {
        self.diagram(false)
    }

    fn __repr__(&self) -> String {
        format!("kifu.Board({:?})", self.position.to_string())
    }

    /// Boards are equal when their discs and side to move are (the last
    /// move aside).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Board>()
            .is_ok_and(|o| o.borrow().position == self.position)
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }
}
