//! `village show NAME` (a profile's card) and `village show --list` (every profile, trait, spell,
//! Behaviour, Opportunity and variant with its one-line description), as text or JSON.

use super::print_json;
use crate::DataArgs;
use anyhow::{bail, Result};
use std::process::ExitCode;
use village::script::{Limits, ScriptHost};

/// `village show`.
pub fn run(name: Option<&str>, list: bool, json: bool, data: &DataArgs) -> Result<ExitCode> {
    let host = match ScriptHost::open(&data.layers(), Limits::default(), 0) {
        Ok(h) => h,
        Err(errors) => bail!("{}", errors.join("\n")),
    };
    if list {
        let sections = host.catalogue().map_err(|e| anyhow::anyhow!(e))?;
        if json {
            let v: serde_json::Map<String, serde_json::Value> = sections
                .iter()
                .map(|(title, entries)| Ok((title.to_string(), serde_json::to_value(entries)?)))
                .collect::<Result<_>>()?;
            print_json(&v)?;
        } else {
            out!("{}", village::show::catalogue_text(&sections));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(name) = name else {
        bail!("village show NAME prints a profile (village show --list lists them all)");
    };
    let card = host.profile_card(name).map_err(|e| anyhow::anyhow!(e))?;
    if json {
        print_json(&card)?;
    } else {
        out!("{}", card.text());
    }
    Ok(ExitCode::SUCCESS)
}
