//! Reading PGN: a line at a time, one game after another.

use std::io::{BufRead, Read};
use std::ops::Range;

use crate::engine::game::Move;
use crate::formats::pgn::fen::parse_fen;
use crate::formats::pgn::lex::{
    classify, decode, glyphs, is_delimiter, looks_like_tag, nag, note_commands, result_token,
    unknown, Lexeme,
};
use crate::record::date::RecordDate;
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::{
    Annotation, AnnotationKind, MoveNote, RecordedMove, RecordedResult, ResultKind, ResultValue,
    Rules, Token,
};
use crate::GameRecord;

/// Bytes of one game beyond which the rest of it is skipped (with a
/// defect): it bounds the memory a game can take.
pub const GAME_CAP: usize = 1 << 20;
/// Bytes of source text kept per game for diagnostics.
pub(super) const TEXT_CAP: usize = 64 << 10;
/// Comments, NAGs and variations of one game beyond which the rest of
/// it is skipped (with a defect): they cost more memory than their bytes.
pub(super) const ANNOTATION_CAP: usize = 1 << 14;
/// Longest line read at once.
pub(super) const LINE_CAP: u64 = 1 << 20;

/// Where a piece of a line starts in the input.
#[derive(Clone, Copy, Debug)]
struct LineCtx {
    line: u32,
    byte: u64,
    column: u32,
}

/// Columns within one line, computed forward.
struct LineLoc<'a> {
    line: &'a [u8],
    ctx: LineCtx,
    ascii: bool,
    at: usize,
    column: u32,
}

impl<'a> LineLoc<'a> {
    fn new(line: &'a [u8], ctx: LineCtx) -> LineLoc<'a> {
        LineLoc {
            line,
            ctx,
            ascii: line.is_ascii(),
            at: 0,
            column: ctx.column,
        }
    }

    fn pos(&mut self, offset: usize) -> Span {
        let offset = offset.min(self.line.len());
        let column = if self.ascii {
            self.ctx
                .column
                .saturating_add(u32::try_from(offset).unwrap_or(u32::MAX))
        } else {
            if offset < self.at {
                self.at = 0;
                self.column = self.ctx.column;
            }
            let chars = self
                .line
                .get(self.at..offset)
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b & 0xC0 != 0x80)
                .count();
            self.column = self
                .column
                .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
            self.at = offset;
            self.column
        };
        Span::new(self.ctx.byte + offset as u64, self.ctx.line, column, 0)
    }
}

fn termination_kind(text: &str) -> Option<ResultKind> {
    match text.trim().to_ascii_lowercase().as_str() {
        "resignation" | "resigned" | "resign" => Some(ResultKind::Resigned),
        "time forfeit" | "time" | "timeout" => Some(ResultKind::Time),
        "agreement" | "mutual agreement" | "agreed" => Some(ResultKind::Mutual),
        _ => None,
    }
}

/// The date with the time of a `Time` tag after it (`2003.12.15
/// 19:33:18`), when the date has its day and no time and the whole reads
/// as one moment ([`RecordDate::parse`]).
fn with_time(date: Option<&str>, time: &str) -> Option<String> {
    let date = date?;
    let day = RecordDate::parse(date)?;
    if day.day.is_none() || day.time.is_some() {
        return None;
    }
    let whole = format!("{date} {time}");
    RecordDate::parse(&whole)?.time?;
    Some(whole)
}

/// Black's theoretical score from `36-28` or `36`.
fn theoretical(text: &str) -> Option<u8> {
    let t = text.trim();
    match t.split_once('-') {
        Some((a, b)) => {
            let (a, b): (u8, u8) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (u16::from(a) + u16::from(b) <= 64).then_some(a)
        }
        None => t.parse().ok().filter(|&a: &u8| a <= 64),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Start,
    Tags,
    Moves,
}

/// What a line did to the game being read.
enum Outcome {
    /// The game goes on.
    More,
    /// The game ended; the rest of the line from this offset is not its.
    EndsAt(usize),
    /// The line belongs to the next game.
    EndsBefore,
}

/// The `Result` tag as read.
enum TagResult {
    Parsed(Option<ResultValue>),
    Unparsed,
}

/// The game read so far, and where the reader is in its syntax.
struct GameSoFar {
    rec: GameRecord,
    started: bool,
    phase: Phase,
    blank_after_tags: bool,
    comment: Option<Span>,
    /// The move an open comment follows.
    comment_owner: Option<usize>,
    variation: usize,
    variation_at: Span,
    /// The text of the open comment or variation.
    pending: Vec<u8>,
    skipping: bool,
    size: usize,
    text: Vec<u8>,
    tag_result: Option<TagResult>,
    term: Option<(Option<ResultValue>, String)>,
    termination: Option<usize>,
    /// Where the first `Time` tag is in `tags.extra`.
    time: Option<usize>,
    dashes: usize,
    seen: Vec<&'static str>,
}

impl GameSoFar {
    fn new() -> GameSoFar {
        GameSoFar {
            rec: GameRecord::default(),
            started: false,
            phase: Phase::Start,
            blank_after_tags: false,
            comment: None,
            comment_owner: None,
            variation: 0,
            variation_at: Span::default(),
            pending: Vec::new(),
            skipping: false,
            size: 0,
            text: Vec::new(),
            tag_result: None,
            term: None,
            termination: None,
            time: None,
            dashes: 0,
            seen: Vec::new(),
        }
    }

    fn defect(&mut self, pos: Span, len: usize, message: String) {
        if self.rec.defect.is_none() {
            self.rec.defect = Some(ParseError::at(
                pos.with_len(u32::try_from(len.max(1)).unwrap_or(u32::MAX)),
                message,
            ));
        }
        self.skipping = true;
        self.pending = Vec::new();
    }

    fn begin(&mut self, pos: Span) {
        if !self.started {
            self.started = true;
            self.rec.origin.line = Some(pos.line);
            self.rec.origin.byte = pos.byte;
        }
    }

    /// Reads one line (or its rest from `from`).
    fn feed(&mut self, line: &[u8], from: usize, ctx: LineCtx) -> Outcome {
        let was_started = self.started;
        let outcome = self.scan(line, from, ctx);
        if matches!(outcome, Outcome::EndsBefore) {
            return outcome;
        }
        if self.started {
            // The whole line is kept, from its start, so columns line up.
            let room = TEXT_CAP.saturating_sub(self.text.len());
            self.text
                .extend_from_slice(line.get(..room.min(line.len())).unwrap_or_default());
        } else if self.comment.is_none() && self.rec.annotations.is_empty() {
            // Blank lines and escapes between games cost nothing; comments
            // before a game's first tag are its own and count.
            return outcome;
        }
        let counted = if was_started {
            line.len()
        } else {
            line.len() - from
        };
        self.size = self.size.saturating_add(counted);
        if self.size > GAME_CAP && !self.skipping {
            let pos = LineLoc::new(line, ctx).pos(0);
            self.begin(pos);
            self.defect(
                pos,
                1,
                format!("game exceeds {GAME_CAP} bytes; the rest is skipped"),
            );
        }
        outcome
    }

    fn scan(&mut self, line: &[u8], from: usize, ctx: LineCtx) -> Outcome {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let mut loc = LineLoc::new(line, ctx);
        if from == 0 && ctx.column == 1 {
            if self.comment.is_none() && self.variation == 0 {
                if body.first() == Some(&b'%') {
                    return Outcome::More;
                }
                let trimmed = body.trim_ascii_start();
                match trimmed.first() {
                    None => {
                        return match self.phase {
                            Phase::Moves => Outcome::EndsAt(line.len()),
                            Phase::Tags => {
                                self.blank_after_tags = true;
                                Outcome::More
                            }
                            Phase::Start => Outcome::More,
                        };
                    }
                    Some(b'[')
                        if self.phase == Phase::Moves
                            || (self.phase == Phase::Tags && self.blank_after_tags) =>
                    {
                        return Outcome::EndsBefore;
                    }
                    _ => {}
                }
            } else if looks_like_tag(body) {
                // An unclosed comment or variation would swallow the
                // next game.
                self.unclosed();
                return Outcome::EndsBefore;
            }
        }
        let n = body.len();
        let mut i = from;
        while i < n {
            let Some(&c) = body.get(i) else { break };
            if self.comment.is_some() {
                let rest = body.get(i..).unwrap_or_default();
                let Some(k) = rest.iter().position(|&c| c == b'}') else {
                    self.keep(rest);
                    break;
                };
                self.keep(rest.get(..k).unwrap_or_default());
                i += k + 1;
                if self.variation > 0 {
                    self.keep(b"}");
                    self.comment = None;
                } else {
                    self.close_comment();
                }
                continue;
            }
            if self.variation > 0 {
                match c {
                    b'(' => self.variation += 1,
                    b')' => self.variation -= 1,
                    b'{' => self.comment = Some(loc.pos(i)),
                    b';' => {
                        // The rest of the line is a comment inside it.
                        self.keep(body.get(i..).unwrap_or_default());
                        break;
                    }
                    _ => {}
                }
                self.keep(&[c]);
                i += 1;
                if self.variation == 0 {
                    self.close_variation();
                }
                continue;
            }
            // A `$` without a number that fits is read as a word below.
            if let Some((value, digits)) = (c == b'$')
                .then(|| nag(body.get(i + 1..).unwrap_or_default()))
                .flatten()
            {
                let pos = loc.pos(i);
                self.begin(pos);
                self.annotate(pos, AnnotationKind::Nag(value));
                i += 1 + digits;
                continue;
            }
            match c {
                c if c.is_ascii_whitespace() => i += 1,
                b'{' => {
                    self.comment = Some(loc.pos(i));
                    // A comment right after a move may hold its evaluation
                    // and time.
                    self.comment_owner = match self.phase {
                        Phase::Moves if !self.skipping => self.rec.moves.len().checked_sub(1),
                        _ => None,
                    };
                    self.pending.clear();
                    i += 1;
                }
                b';' => {
                    let pos = loc.pos(i);
                    let text = decode(body.get(i + 1..).unwrap_or_default());
                    self.annotate(pos, AnnotationKind::Comment(text));
                    i = n;
                }
                b'(' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.variation = 1;
                    self.variation_at = pos;
                    self.pending.clear();
                    self.keep(b"(");
                    i += 1;
                }
                b')' | b'}' | b']' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.defect(pos, 1, format!("unmatched '{}'", char::from(c)));
                    i += 1;
                }
                b'[' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    i = self.tag(body, i, &mut loc);
                }
                _ => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.phase = Phase::Moves;
                    let mut j = i;
                    while body.get(j).is_some_and(|&c| !is_delimiter(c)) {
                        j += 1;
                    }
                    // Every delimiter is handled above; never stand still.
                    j = j.max(i + 1);
                    let word = body.get(i..j).unwrap_or_default();
                    match classify(word) {
                        Lexeme::Number(len) => {
                            i += len;
                            continue;
                        }
                        Lexeme::Result(value) => {
                            self.term = Some((value, decode(word)));
                            return Outcome::EndsAt(j);
                        }
                        Lexeme::Square(sq) => {
                            let (name, suffix) = word.split_at(2.min(word.len()));
                            self.push(Token::Move(Move::Play(sq)), pos, name, false);
                            for value in glyphs(suffix) {
                                self.annotate(pos, AnnotationKind::Nag(value));
                            }
                        }
                        Lexeme::Pass(dashes) => {
                            self.push(Token::Move(Move::Pass), pos, word, dashes)
                        }
                        Lexeme::Unreadable => self.push(Token::Unreadable, pos, word, false),
                    }
                    i = j;
                }
            }
        }
        if (self.comment.is_some() || self.variation > 0) && line.last() == Some(&b'\n') {
            self.keep(b"\n");
        }
        Outcome::More
    }

    /// Ends an unclosed comment or variation with a defect where it opened.
    fn unclosed(&mut self) {
        let (open, message) = match self.comment {
            Some(open) => (open, "unclosed '{' comment"),
            None => (self.variation_at, "unclosed '(' variation"),
        };
        self.begin(open);
        self.defect(open, 1, message.to_owned());
        self.comment = None;
        self.variation = 0;
    }

    /// Keeps text of the open comment or variation.
    fn keep(&mut self, bytes: &[u8]) {
        if !self.skipping {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// A `{…}` comment ends: an annotation, except the evaluation and time
    /// of the move it follows, which are that move's note.
    fn close_comment(&mut self) {
        let open = self.comment.take().unwrap_or_default();
        let owner = self.comment_owner.take();
        let raw = std::mem::take(&mut self.pending);
        if self.skipping {
            return;
        }
        let text = decode(&raw);
        let text = match owner {
            Some(owner) => self.note(owner, text),
            None => Some(text),
        };
        if let Some(text) = text {
            self.annotate(open, AnnotationKind::Comment(text));
        }
    }

    /// A `( … )` variation ends.
    fn close_variation(&mut self) {
        let raw = std::mem::take(&mut self.pending);
        if !self.skipping {
            let open = self.variation_at;
            self.annotate(open, AnnotationKind::Variation(decode(&raw)));
        }
    }

    /// Takes `[%eval x]` and `[%emt t]` out of a comment after move
    /// `owner` into its note; returns the rest of the comment, if any.
    fn note(&mut self, owner: usize, text: String) -> Option<String> {
        let (eval, time) = note_commands(&text);
        if eval.is_none() && time.is_none() {
            return Some(text);
        }
        let notes = &mut self.rec.notes;
        if notes.len() <= owner {
            notes.resize(owner + 1, MoveNote::default());
        }
        if let Some(note) = notes.get_mut(owner) {
            note.eval = eval.as_ref().map(|(_, v)| *v).or(note.eval);
            note.time = time.as_ref().map(|(_, v)| *v).or(note.time);
        }
        let mut cuts: Vec<Range<usize>> = [eval.map(|(at, _)| at), time.map(|(at, _)| at)]
            .into_iter()
            .flatten()
            .collect();
        cuts.sort_by_key(|r| r.start);
        let mut rest = String::new();
        let mut at = 0;
        for cut in cuts {
            rest.push_str(text.get(at..cut.start.max(at)).unwrap_or_default());
            at = at.max(cut.end);
        }
        rest.push_str(text.get(at..).unwrap_or_default());
        let rest = rest.trim();
        (!rest.is_empty()).then(|| rest.to_owned())
    }

    /// Keeps a comment, NAG or variation after the moves read so far.
    fn annotate(&mut self, at: Span, kind: AnnotationKind) {
        if self.skipping {
            return;
        }
        if self.rec.annotations.len() >= ANNOTATION_CAP {
            self.begin(at);
            self.defect(
                at,
                1,
                format!(
                    "game has more than {ANNOTATION_CAP} comments, NAGs and variations; \
                     the rest is skipped"
                ),
            );
            return;
        }
        self.rec.annotations.push(Annotation {
            after: self.rec.moves.len(),
            kind,
        });
    }

    /// Records a move token; `dashes` marks a `--` pass, which may be
    /// Cassio's padding when nothing but such passes follows.
    fn push(&mut self, token: Token, pos: Span, word: &[u8], dashes: bool) {
        if self.skipping {
            return;
        }
        self.dashes = if dashes { self.dashes + 1 } else { 0 };
        if token == Token::Unreadable {
            let index = self.rec.moves.len();
            self.rec.unreadable.push((index, decode(word).into()));
        }
        self.rec.moves.push(RecordedMove { token, color: None });
        self.rec.spans.push(Span {
            byte: pos.byte,
            line: pos.line,
            column: pos.column,
            len: u32::try_from(word.len()).unwrap_or(u32::MAX),
        });
    }

    /// Reads a tag pair at `body[open] == '['`; returns where to go on.
    fn tag(&mut self, body: &[u8], open: usize, loc: &mut LineLoc<'_>) -> usize {
        let n = body.len();
        if self.phase == Phase::Moves {
            let pos = loc.pos(open);
            self.defect(pos, 1, "tag pair inside the move text".to_owned());
            return n;
        }
        self.phase = Phase::Tags;
        let mut i = open + 1;
        let skip_ws = |i: &mut usize| {
            while body.get(*i).is_some_and(u8::is_ascii_whitespace) {
                *i += 1;
            }
        };
        skip_ws(&mut i);
        let name_at = i;
        while body
            .get(i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
        {
            i += 1;
        }
        let name = decode(body.get(name_at..i).unwrap_or_default());
        if name.is_empty() {
            let pos = loc.pos(name_at);
            self.defect(pos, 1, "expected a tag name after '['".to_owned());
            return n;
        }
        skip_ws(&mut i);
        if body.get(i) != Some(&b'"') {
            let pos = loc.pos(i);
            self.defect(pos, 1, format!("expected '\"' after the tag name {name}"));
            return n;
        }
        i += 1;
        let mut raw = Vec::new();
        loop {
            match body.get(i) {
                None => {
                    let pos = loc.pos(open);
                    self.defect(pos, n - open, "unterminated tag value".to_owned());
                    return n;
                }
                Some(b'\\') if matches!(body.get(i + 1), Some(b'"' | b'\\')) => {
                    raw.extend(body.get(i + 1));
                    i += 2;
                }
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(&c) => {
                    raw.push(c);
                    i += 1;
                }
            }
        }
        skip_ws(&mut i);
        if body.get(i) != Some(&b']') {
            let pos = loc.pos(i);
            self.defect(pos, 1, "expected ']' after the tag value".to_owned());
            return n;
        }
        i += 1;
        if !self.skipping {
            let pos = loc.pos(open);
            self.apply_tag(name, decode(&raw), pos, i - open);
        }
        i
    }

    fn apply_tag(&mut self, name: String, value: String, pos: Span, len: usize) {
        let lower = name.to_ascii_lowercase();
        let key: &'static str = match lower.as_str() {
            "event" => "event",
            "site" => "site",
            "date" => "date",
            "round" => "round",
            "black" => "black",
            "white" => "white",
            "blackelo" => "blackelo",
            "whiteelo" => "whiteelo",
            "result" => "result",
            "fen" => "fen",
            "setup" => "setup",
            "theoreticalscore" | "theoricalscore" => "theoretical",
            "variant" => "variant",
            "termination" => "termination",
            "time" => "time",
            _ => "",
        };
        let tags = &mut self.rec.tags;
        let slot = match key {
            "event" => Some(&mut tags.event),
            "site" => Some(&mut tags.site),
            "date" => Some(&mut tags.date),
            "round" => Some(&mut tags.round),
            "black" => Some(&mut tags.black),
            "white" => Some(&mut tags.white),
            "blackelo" => Some(&mut tags.black_rating),
            "whiteelo" => Some(&mut tags.white_rating),
            _ => None,
        };
        match slot {
            // Unknown (`?`) leaves the field open to a later value.
            Some(_) if unknown(&value) => return,
            Some(slot) if slot.is_none() => {
                *slot = Some(value);
                return;
            }
            Some(_) => {
                self.rec.tags.extra.push((name, value));
                return;
            }
            None => {}
        }
        if key.is_empty() || self.seen.contains(&key) {
            if !matches!(key, "fen" | "setup") {
                self.rec.tags.extra.push((name, value));
            }
            return;
        }
        self.seen.push(key);
        match key {
            "result" => {
                let t = value.trim();
                self.tag_result = Some(if t == "?" {
                    TagResult::Parsed(None)
                } else if let Some(v) = result_token(t.as_bytes()) {
                    TagResult::Parsed(v)
                } else {
                    self.rec.tags.extra.push((name, value));
                    TagResult::Unparsed
                });
            }
            "fen" => match parse_fen(&value) {
                Ok(position) => self.rec.start = position,
                Err(message) => self.defect(pos, len, message),
            },
            "theoretical" => match theoretical(&value) {
                Some(score) => self.rec.theoretical_black_score = Some(score),
                None => self.rec.tags.extra.push((name, value)),
            },
            "variant" if value.trim().eq_ignore_ascii_case("anti") => {
                self.rec.rules = Rules::Anti;
            }
            "termination" => {
                self.termination = Some(self.rec.tags.extra.len());
                self.rec.tags.extra.push((name, value));
            }
            "time" => {
                self.time = Some(self.rec.tags.extra.len());
                self.rec.tags.extra.push((name, value));
            }
            "setup" => {}
            _ => self.rec.tags.extra.push((name, value)),
        }
    }

    fn finish(mut self, index: u64) -> GameRecord {
        if self.comment.is_some() || self.variation > 0 {
            self.unclosed();
        }
        let keep = self.rec.moves.len().saturating_sub(self.dashes);
        self.rec.moves.truncate(keep);
        self.rec.spans.truncate(keep);
        for annotation in &mut self.rec.annotations {
            annotation.after = annotation.after.min(keep);
        }
        if !self.rec.notes.is_empty() {
            self.rec.notes.resize(keep, MoveNote::default());
        }
        let tag_value = match &self.tag_result {
            Some(TagResult::Parsed(v)) => *v,
            _ => None,
        };
        let term_value = self.term.as_ref().and_then(|(v, _)| *v);
        if let (Some(t), Some((Some(m), text))) = (tag_value, &self.term) {
            if t != *m {
                self.rec
                    .tags
                    .extra
                    .push(("MovetextResult".to_owned(), text.clone()));
            }
        }
        self.rec.result = tag_value.or(term_value).map(RecordedResult::new);
        // Tags read into fields leave `extra`, the later one first.
        let mut read = Vec::with_capacity(2);
        if let (Some(k), Some(result)) = (self.termination, self.rec.result.as_mut()) {
            let kind = self
                .rec
                .tags
                .extra
                .get(k)
                .and_then(|(_, v)| termination_kind(v));
            if let Some(kind) = kind {
                result.kind = kind;
                read.push(k);
            }
        }
        if let Some(k) = self.time {
            let tags = &mut self.rec.tags;
            if let Some(whole) = tags
                .extra
                .get(k)
                .and_then(|(_, time)| with_time(tags.date.as_deref(), time))
            {
                tags.date = Some(whole);
                read.push(k);
            }
        }
        read.sort_unstable();
        for k in read.into_iter().rev() {
            self.rec.tags.extra.remove(k);
        }
        self.rec.origin.index = index;
        self.rec.origin.text = Some(String::from_utf8_lossy(&self.text).into());
        self.rec
    }
}

/// Streams games from a PGN file, one [`GameRecord`] per game.
///
/// ```
/// use kifu::formats::pgn::Reader;
/// use kifu::ResultValue;
///
/// let text = "[Black \"Ann\"]\n[Result \"38-26\"]\n\n1. f5 d6 2. c3 -- 38-26\n\n1. d3 *\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].move_string(), "f5d6c3");
/// assert_eq!(games[0].tags.black.as_deref(), Some("Ann"));
/// assert_eq!(
///     games[0].result.unwrap().value,
///     ResultValue::Discs { black: 38, white: 26 }
/// );
/// assert_eq!((games[1].origin.line, games[1].span(0).unwrap().column), (Some(6), 4));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub struct Reader<R> {
    input: R,
    line: Vec<u8>,
    ctx: LineCtx,
    next: LineCtx,
    cursor: Option<usize>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        let start = LineCtx {
            line: 1,
            byte: 0,
            column: 1,
        };
        Reader {
            input,
            line: Vec::with_capacity(256),
            ctx: start,
            next: start,
            cursor: None,
            games: 0,
            failed: false,
        }
    }

    /// Reads the next line (or piece of a long line); `false` at the end.
    fn read_line(&mut self) -> std::io::Result<bool> {
        self.line.clear();
        let n = (&mut self.input)
            .take(LINE_CAP)
            .read_until(b'\n', &mut self.line)?;
        if n == 0 {
            return Ok(false);
        }
        self.ctx = self.next;
        let byte = self.ctx.byte + n as u64;
        self.next = if self.line.last() == Some(&b'\n') {
            LineCtx {
                line: self.ctx.line.saturating_add(1),
                byte,
                column: 1,
            }
        } else {
            let chars = self.line.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            LineCtx {
                line: self.ctx.line,
                byte,
                column: self
                    .ctx
                    .column
                    .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX)),
            }
        };
        if self.ctx.byte == 0 && self.line.starts_with(b"\xEF\xBB\xBF") {
            // A byte order mark is not part of the first line's text.
            self.line.drain(..3);
            self.ctx.byte = 3;
        }
        Ok(true)
    }
}

/// Read game by game (not parsed in the workers).
impl<R: BufRead + Send> crate::formats::format::GameReader for Reader<R> {}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut game = GameSoFar::new();
        loop {
            let from = match self.cursor.take() {
                Some(from) => from,
                None => match self.read_line() {
                    Ok(true) => 0,
                    Ok(false) => break,
                    Err(e) => {
                        self.failed = true;
                        return Some(Err(ReadError::Io(e)));
                    }
                },
            };
            match game.feed(&self.line, from, self.ctx) {
                Outcome::More => {}
                Outcome::EndsAt(at) => {
                    if at < self.line.len() {
                        self.cursor = Some(at);
                    }
                    break;
                }
                Outcome::EndsBefore => {
                    self.cursor = Some(from);
                    break;
                }
            }
        }
        if !game.started {
            // Text after the last game is not a game, unless it opens a
            // comment that never closes: that is said.
            game.comment?;
            game.unclosed();
        }
        self.games += 1;
        Some(Ok(game.finish(self.games)))
    }
}
