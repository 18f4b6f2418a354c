//! Season configs read as `ladder run` reads them: a good config becomes the
//! expected plan, and every kind of mistake is an error naming the file, line,
//! column and key (exit code 2), with the offending line shown.

use std::time::Duration;

use ladder::{
    catalog::{self, GameKind},
    core::{clock::TimeControl, referee::Referee},
    games::{bidding::BiddingParams, Bidding},
    plan::config::{self, ConfigFile},
    plan::schedule::Format,
    plan::Plan,
};

mod common;
use common::Edit;

const GOOD: &str = r#"
[season]
name = "t"
game = "bidding"
games_per_pair = 4
seed = 7

[season.params]
money = 50

[[bot]]
name = "a"
builtin = "random"

[[bot]]
name = "b"
builtin = "random"
"#;

/// Reads `text` as the config file `x.toml`, as `ladder run` does.
fn plan_of(text: &str) -> Result<Plan<Bidding>, String> {
    let file = ConfigFile {
        file: "x.toml".to_string(),
        text: text.to_string(),
        stored: false,
    };
    let err = |e: ladder::Error| {
        assert_eq!(e.exit_code(), 2, "config errors are bad input");
        e.to_string()
    };
    let game = file.game().map_err(err)?;
    if GameKind::from_name(game.get_ref()) != Some(GameKind::Bidding) {
        let unknown = catalog::unknown_game(game.get_ref());
        return Err(err(file.error(Some(game.span()), unknown)));
    }
    config::plan(&file, &catalog::roster(&ladder::games::bidding::ENTRY)).map_err(err)
}

#[test]
fn a_good_config() {
    let p = plan_of(GOOD).unwrap();
    assert_eq!(p.name, "t");
    assert_eq!(
        p.params,
        BiddingParams {
            money: 50,
            ..BiddingParams::default()
        }
    );
    assert_eq!(p.games_per_pair, 4);
    assert_eq!(p.seed, 7);
    assert_eq!(p.format, Format::RoundRobin);
    assert_eq!(p.referee, Referee::new(Referee::DEFAULT_MAX_PLIES));
    assert_eq!(p.bots.len(), 2);
    assert_eq!(p.describe()["params"]["money"], 50);
}

#[test]
fn errors_name_file_line_and_key() {
    let cases = [
        (
            GOOD.edit("games_per_pair = 4", "gams_per_pair = 4"),
            "x.toml:5:1: key `season.gams_per_pair`: unknown field `gams_per_pair`",
        ),
        (
            GOOD.edit("money = 50", "monye = 50"),
            "x.toml:9:1: key `season.params.monye`: unknown field `monye`",
        ),
        (
            GOOD.edit("money = 50", "money = \"lots\""),
            "x.toml:9:9: key `season.params.money`: invalid type",
        ),
        (
            GOOD.edit("games_per_pair = 4", "games_per_pair = 0"),
            "x.toml:5:18: key `season.games_per_pair`: games_per_pair must be at least 1",
        ),
        (
            GOOD.edit("game = \"bidding\"", "game = \"chess\""),
            "x.toml:4:8: key `season.game`: unknown game `chess`",
        ),
        (
            GOOD.edit("builtin = \"random\"\n\n", "builtin = \"genius\"\n\n"),
            "x.toml:13:11: key `bot.builtin`: no built-in bot `genius`",
        ),
        (
            GOOD.edit("name = \"b\"", "name = \"a\""),
            "x.toml:16:8: key `bot.name`: two bots are named `a`",
        ),
        (
            GOOD.edit("money = 50", "start = 10"),
            "x.toml:8:1: key `season.params`: start must lie strictly between",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nformat = \"gauntlet\""),
            "key `season.format`: a gauntlet needs `champion`",
        ),
        (
            GOOD.edit(
                "seed = 7",
                "seed = 7\nformat = \"gauntlet\"\nchampion = \"zz\"",
            ),
            "key `season.champion`: no bot is named `zz`",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nformat = \"swiss\""),
            "unknown format `swiss`",
        ),
        (
            GOOD.edit("name = \"t\"", "name = \"../up\""),
            "key `season.name`: `../up` is not a usable name",
        ),
        (
            GOOD.edit("[[bot]]\nname = \"b\"\nbuiltin = \"random\"", ""),
            "x.toml: a season needs at least two [[bot]] entries, found 1",
        ),
        (
            GOOD.edit(
                "builtin = \"random\"\n\n",
                "builtin = \"random\"\nparams = { depth = 3 }\n\n",
            ),
            "x.toml:14:10: key `bot.params`: bot `random` takes only `max`, got `depth`",
        ),
        ("[season\n".to_string(), "x.toml:1:8: "),
        (
            format!("{GOOD}\n[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n")
                .edit("seed = 7", "seed = 7\nsprt = { elo1 = 5 }"),
            "key `season.sprt`: [season.sprt] tests one bot against another: the season needs exactly two bots, found 3",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nsprt = { elo0 = 5, elo1 = 5 }"),
            "x.toml:7:27: key `season.sprt`: elo0 must be below elo1",
        ),
        (
            format!("{GOOD}\n[season.sprt]\nelo1 = 5\nalpha = 1.5\n"),
            "x.toml:21:9: key `season.sprt.alpha`: alpha must lie strictly between 0 and 1, got 1.5",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nsprt = { elo1 = 5, model = \"bayes\" }"),
            "x.toml:7:28: key `season.sprt`: unknown model `bayes`; known: normalized, logistic",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nsprt = { elo1 = 5, statistics = \"penta\" }"),
            "unknown statistics `penta`; known: pentanomial, trinomial",
        ),
        (
            GOOD.edit("seed = 7", "seed = 7\nsprt = { elo0 = 1 }"),
            "missing field `elo1`",
        ),
    ];
    for (text, want) in cases {
        let err = plan_of(&text)
            .err()
            .unwrap_or_else(|| panic!("accepted:\n{text}"));
        assert!(err.contains(want), "wanted {want:?} in:\n{err}");
    }
}

#[test]
fn the_error_shows_the_offending_line() {
    let err = plan_of(&GOOD.edit("seed = 7", "seed = -7")).err().unwrap();
    assert!(err.ends_with("    6 | seed = -7"), "{err}");
}

#[test]
fn time_controls() {
    let p = plan_of(&GOOD.edit(
        "seed = 7",
        "seed = 7\ntime_control = \"2+0.1\"\nmargin_ms = 0",
    ))
    .unwrap();
    let t = &p.referee.time;
    assert_eq!(t.move_time, None, "a game clock alone sets no move budget");
    assert_eq!(t.clock.unwrap().base, Duration::from_secs(2));
    assert_eq!(t.clock.unwrap().increment, Duration::from_millis(100));
    assert_eq!(t.margin, Duration::ZERO);
    assert_eq!(p.describe()["time_control"], "2+0.1");
    assert_eq!(p.describe()["margin_ms"], 0);
    assert_eq!(p.describe()["move_time_ms"], serde_json::Value::Null);
    let both = plan_of(&GOOD.edit(
        "seed = 7",
        "seed = 7\ntime_control = \"2\"\nmove_time_ms = 300",
    ))
    .unwrap();
    assert_eq!(
        both.referee.time.move_time,
        Some(Duration::from_millis(300))
    );
    // the defaults add no key, so journals of older versions still resume
    let plain = plan_of(GOOD).unwrap();
    assert_eq!(plain.referee.time, TimeControl::default());
    assert!(plain.describe().get("time_control").is_none());
    assert!(plain.describe().get("margin_ms").is_none());
    let err = plan_of(&GOOD.edit("seed = 7", "seed = 7\ntime_control = \"fast\""))
        .err()
        .unwrap();
    assert!(
        err.contains("x.toml:7:16: key `season.time_control`: time_control is \"BASE+INCREMENT\""),
        "{err}"
    );
}
