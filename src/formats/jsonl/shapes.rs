//! The JSON shapes of a ply, an annotation and another board.

use serde::{Deserialize, Serialize};

use crate::record::{Annotation, AnnotationKind, OtherBoard};
use crate::Color;

/// One move of the `plies` list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlyJson {
    /// `black` or `white`.
    pub color: Option<Color>,
    /// A square, `pass`, or an unreadable token as written.
    #[serde(rename = "move")]
    pub mv: String,
    /// A pass the record left out and the replay inserted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub implicit: bool,
    /// Evaluation, as the record gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<f64>,
    /// Seconds spent, as the record gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
}

/// One annotation: where it is and one of `comment`, `nag`, `variation`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct AnnotationJson {
    after: usize,
    #[serde(flatten)]
    kind: KindJson,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum KindJson {
    Comment(String),
    Nag(u16),
    Variation(String),
}

impl From<&Annotation> for AnnotationJson {
    fn from(a: &Annotation) -> AnnotationJson {
        AnnotationJson {
            after: a.after,
            kind: match &a.kind {
                AnnotationKind::Comment(text) => KindJson::Comment(text.clone()),
                AnnotationKind::Nag(n) => KindJson::Nag(*n),
                AnnotationKind::Variation(text) => KindJson::Variation(text.clone()),
            },
        }
    }
}

impl From<AnnotationJson> for Annotation {
    fn from(a: AnnotationJson) -> Annotation {
        Annotation {
            after: a.after,
            kind: match a.kind {
                KindJson::Comment(text) => AnnotationKind::Comment(text),
                KindJson::Nag(n) => AnnotationKind::Nag(n),
                KindJson::Variation(text) => AnnotationKind::Variation(text),
            },
        }
    }
}

/// Another board: its size and its start as the source wrote it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct OtherBoardJson {
    size: u8,
    start: String,
}

impl From<&OtherBoard> for OtherBoardJson {
    fn from(b: &OtherBoard) -> OtherBoardJson {
        OtherBoardJson {
            size: b.size,
            start: b.start.clone(),
        }
    }
}

impl From<OtherBoardJson> for OtherBoard {
    fn from(b: OtherBoardJson) -> OtherBoard {
        OtherBoard {
            size: b.size,
            start: b.start,
        }
    }
}
