//! The optional tables of `[season]`, read and checked:
//! `[season.openings]` (start positions), `[season.adjudication]` (draw and
//! resign rules) and `[season.sprt]` (the sequential test). Every error names
//! the key at fault, as the rest of the config's do.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::{
    core::{
        error::Error,
        game::Game,
        referee::{Adjudication, DrawRule, ResignRule},
    },
    plan::{config::ConfigFile, openings::Openings, schedule::Format},
    stats::sprt::{Model, Sprt, Statistics},
};

/// The `[season.openings]` table as written (`plan::openings`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOpenings {
    pub(super) file: Option<Spanned<String>>,
    pub(super) order: Option<Spanned<String>>,
    pub(super) random_plies: Option<Spanned<u32>>,
    pub(super) per_pair: Option<Spanned<u32>>,
}

/// The `[season.adjudication]` table as written (`core::referee::Adjudication`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAdjudication {
    pub(super) draw_move_number: Option<Spanned<u32>>,
    pub(super) draw_move_count: Option<Spanned<u32>>,
    pub(super) draw_score: Option<Spanned<i32>>,
    pub(super) resign_move_count: Option<Spanned<u32>>,
    pub(super) resign_score: Option<Spanned<i32>>,
}

/// The `[season.sprt]` table as written (`stats::sprt`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSprt {
    pub(super) elo0: Option<Spanned<f64>>,
    pub(super) elo1: Spanned<f64>,
    pub(super) alpha: Option<Spanned<f64>>,
    pub(super) beta: Option<Spanned<f64>>,
    pub(super) model: Option<Spanned<String>>,
    pub(super) statistics: Option<Spanned<String>>,
}

/// The openings of `[season.openings]`: a file (relative to the config's
/// folder) or random plies; `per_pair` openings per pairing, by default one
/// for every colour-swapped pair of games.
pub(super) fn openings<G: Game>(
    src: &ConfigFile,
    raw: &Spanned<RawOpenings>,
    params: &G::Params,
    start: &G,
    seed: u64,
    games_per_pair: u32,
) -> Result<Openings<G>, Error> {
    let t = raw.get_ref();
    let per_pair = match &t.per_pair {
        Some(k) if *k.get_ref() == 0 => {
            return Err(src.error(Some(k.span()), "per_pair must be at least 1"))
        }
        Some(k) => *k.get_ref(),
        None => games_per_pair.div_ceil(2),
    };
    match (&t.file, &t.random_plies) {
        (Some(file), None) => {
            let random = one_of(src, &t.order, "order", &["sequential", "random"])? == 1;
            let dir = Path::new(&src.file).parent().unwrap_or(Path::new(""));
            let path = dir.join(file.get_ref());
            let text = crate::core::files::read_text(&path).map_err(|e| {
                src.error(
                    Some(file.span()),
                    format!("cannot read {}: {e}", path.display()),
                )
            })?;
            crate::plan::openings::from_file(params, &path, &text, random, seed, per_pair)
                .map_err(|e| src.error(Some(file.span()), e))
        }
        (None, Some(plies)) => {
            if let Some(o) = &t.order {
                return Err(src.error(Some(o.span()), "`order` is for an openings `file`"));
            }
            crate::plan::openings::random_plies(start, *plies.get_ref(), seed, per_pair)
                .map_err(|e| src.error(Some(plies.span()), e))
        }
        _ => Err(src.error(
            Some(raw.span()),
            "[season.openings] takes either `file` or `random_plies`",
        )),
    }
}

/// The rules of `[season.adjudication]`: a draw rule needs its count and
/// score, a resign rule too; counts are at least 1, scores at least 0.
pub(super) fn adjudication(
    src: &ConfigFile,
    raw: &Spanned<RawAdjudication>,
) -> Result<Adjudication, Error> {
    let t = raw.get_ref();
    let count = |v: &Option<Spanned<u32>>| -> Result<Option<u32>, Error> {
        match v {
            Some(v) if *v.get_ref() == 0 => {
                Err(src.error(Some(v.span()), "a move count must be at least 1"))
            }
            v => Ok(v.as_ref().map(|v| *v.get_ref())),
        }
    };
    let score = |v: &Option<Spanned<i32>>| -> Result<Option<i32>, Error> {
        match v {
            Some(v) if *v.get_ref() < 0 => {
                Err(src.error(Some(v.span()), "a score bound is at least 0"))
            }
            v => Ok(v.as_ref().map(|v| *v.get_ref())),
        }
    };
    let missing =
        |what: &str| src.error(Some(raw.span()), format!("{what} needs both of its keys"));
    let draw = match (
        count(&t.draw_move_count)?,
        score(&t.draw_score)?,
        &t.draw_move_number,
    ) {
        (None, None, None) => None,
        (Some(move_count), Some(score), number) => Some(DrawRule {
            move_number: number.as_ref().map_or(0, |n| *n.get_ref()),
            move_count,
            score,
        }),
        _ => {
            return Err(missing(
                "a draw by move count (draw_move_count, draw_score)",
            ))
        }
    };
    let resign = match (count(&t.resign_move_count)?, score(&t.resign_score)?) {
        (None, None) => None,
        (Some(move_count), Some(score)) => Some(ResignRule { move_count, score }),
        _ => return Err(missing("resigning (resign_move_count, resign_score)")),
    };
    Ok(Adjudication { draw, resign })
}

/// Which of the `known` words the string key `key` holds, by position (0,
/// the default, when it is not set); another word is an error at the key.
fn one_of(
    src: &ConfigFile,
    value: &Option<Spanned<String>>,
    key: &str,
    known: &[&str],
) -> Result<usize, Error> {
    match value {
        None => Ok(0),
        Some(v) => known.iter().position(|k| k == v.get_ref()).ok_or_else(|| {
            src.error(
                Some(v.span()),
                format!(
                    "unknown {key} `{}`; known: {}",
                    v.get_ref(),
                    known.join(", ")
                ),
            )
        }),
    }
}

/// The SPRT of `[season.sprt]`: a season of two bots, the first (or the
/// gauntlet's champion) tested against the other.
pub(super) fn sprt(
    src: &ConfigFile,
    raw: &Spanned<RawSprt>,
    format: &Format,
    bots: usize,
) -> Result<Sprt, Error> {
    let t = raw.get_ref();
    if bots != 2 {
        return Err(src.error(
            Some(raw.span()),
            format!("[season.sprt] tests one bot against another: the season needs exactly two bots, found {bots}"),
        ));
    }
    let model = [Model::Normalized, Model::Logistic]
        [one_of(src, &t.model, "model", &["normalized", "logistic"])?];
    let statistics = [Statistics::Pentanomial, Statistics::Trinomial][one_of(
        src,
        &t.statistics,
        "statistics",
        &["pentanomial", "trinomial"],
    )?];
    let value =
        |v: &Option<Spanned<f64>>, default: f64| v.as_ref().map_or(default, |v| *v.get_ref());
    let sprt = Sprt {
        elo0: value(&t.elo0, 0.0),
        elo1: *t.elo1.get_ref(),
        alpha: value(&t.alpha, Sprt::DEFAULT_ERROR),
        beta: value(&t.beta, Sprt::DEFAULT_ERROR),
        model,
        statistics,
        candidate: match format {
            Format::Gauntlet { champions } => champions[0],
            _ => 0,
        },
    };
    sprt.check().map_err(|(key, why)| {
        let span = match key {
            "alpha" => t.alpha.as_ref().map(Spanned::span),
            "beta" => t.beta.as_ref().map(Spanned::span),
            _ => Some(t.elo1.span()),
        };
        src.error(span.or(Some(raw.span())), why)
    })?;
    Ok(sprt)
}
