//! `ladder ggp-player`: serve one of ladder's GDL bots (`mcts` by default)
//! as a General Game Playing player over HTTP, for ladder's seasons
//! (`protocol = "ggp"`) and for any GGP game manager (docs/GDL.md).

use std::net::{IpAddr, TcpListener};

use ladder::{
    core::bot::builtin_bot,
    games::gdl::{
        self,
        player::{Managers, Player},
    },
    Error, Result,
};

/// The options of `ladder ggp-player`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The built-in GDL bot that plays (see `ladder list bots --game gdl`).
    #[arg(long, default_value = "mcts")]
    pub bot: String,
    /// The bot's parameters, as a TOML inline table's inside: "playouts = 0, mast = 0.3".
    #[arg(long, default_value = "", value_name = "TOML")]
    pub params: String,
    /// The port to listen on (0: any free one, printed on stderr).
    #[arg(long, default_value_t = 9147)]
    pub port: u16,
    /// The address to listen on: loopback unless told otherwise.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: String,
    /// Take messages only from this game manager's IP address (repeatable;
    /// `any`: from anyone). Needed with a `--bind` beyond loopback, as GGP
    /// has no token.
    #[arg(long, value_name = "ADDR")]
    pub manager: Vec<String>,
}

/// Whom `--manager` names; none (`Anyone`) only where `bind` is loopback.
fn managers(given: &[String], bind: IpAddr) -> Result<Managers> {
    if given.iter().any(|m| m == "any") {
        return Ok(Managers::Anyone);
    }
    if given.is_empty() {
        return if bind.is_loopback() {
            Ok(Managers::Anyone)
        } else {
            Err(Error::Usage(format!(
                "--bind {bind}: a player open beyond loopback takes messages from its game \
                 manager only, and GGP has no token: name the manager's address with \
                 --manager ADDR (or take anyone's with --manager any)"
            )))
        };
    }
    let only = given
        .iter()
        .map(|m| {
            m.parse::<IpAddr>().map_err(|_| {
                Error::Usage(format!("--manager {m:?}: not an IP address (nor `any`)"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Managers::Only(only))
}

pub fn run(a: Args) -> Result<()> {
    let params: toml::Table = toml::from_str(&a.params)
        .map_err(|e| Error::Usage(format!("--params: {}", e.message().trim())))?;
    let make = builtin_bot(gdl::NAME, gdl::BOTS, &a.bot, &params)
        .map_err(|e| Error::Usage(e.to_string()))?;
    let listener = TcpListener::bind((a.bind.as_str(), a.port))
        .map_err(|e| Error::Usage(format!("cannot listen on {}:{}: {e}", a.bind, a.port)))?;
    let at = listener
        .local_addr()
        .map_err(|e| Error::Usage(e.to_string()))?;
    let managers = managers(&a.manager, at.ip())?;
    eprintln!("ggp-player: {} listening on http://{at}/", a.bot);
    Player::new(make)
        .from_managers(managers)
        .serve(&listener)
        .map_err(|e| Error::Usage(format!("serving on {at}: {e}")))
}
