//! Roster loading, layering, validation and the check report, through `village::roster`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use village::roster::{check, Measure, ProfileKind, Rosters, Tier};

/// A temporary `--mod` folder with `rosters/` and `scripts/`, removed on drop.
struct ModDir(PathBuf);

impl ModDir {
    fn new(tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "village-roster-{tag}-{}-{nanos}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join("rosters")).unwrap();
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        ModDir(dir)
    }

    fn write(&self, rel: &str, text: &str) -> &Self {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
        self
    }

    fn layers(&self) -> Vec<PathBuf> {
        vec![Rosters::builtin_root(), self.0.clone()]
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ModDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn builtin() -> Rosters {
    match Rosters::load(&[Rosters::builtin_root()]) {
        Ok(r) => r,
        Err(e) => panic!("built-in rosters failed to load:\n{e}"),
    }
}

fn errors_of(layers: &[PathBuf]) -> Vec<String> {
    match Rosters::load(layers) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    }
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// 1-based line of the first line of `text` containing `needle`.
fn line_containing(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle")
        + 1
}

#[test]
fn builtin_rosters_load_with_no_errors_and_no_warnings() {
    let r = builtin();
    assert!(r.warnings.is_empty(), "warnings: {:?}", r.warnings);
    let report = check(&[Rosters::builtin_root()]);
    assert!(report.ok(), "{}", report.to_text());
    assert!(report.warnings.is_empty(), "{}", report.to_text());
    assert!(report.errors.is_empty());
    assert_eq!(report.profiles.len(), 17 + 8 + 2);
}

#[test]
fn every_bestiary_profile_of_the_supplement_is_present() {
    let r = builtin();
    // (name, tier, Q, C, traits, weapon, spells, Behaviours) — SUPPLEMENT §8, † = Igniter.
    #[allow(clippy::type_complexity)]
    let expected: &[(&str, Tier, u8, u8, &[&str], Option<&str>, &[&str], &[&str])] = &[
        (
            "Goblin Looter",
            Tier::Mob,
            4,
            2,
            &["Igniter"],
            None,
            &[],
            &["Raider"],
        ),
        (
            "Kobold Skirmisher",
            Tier::Mob,
            4,
            1,
            &["Shooter", "Igniter"],
            Some("Javelins"),
            &[],
            &["Hunter"],
        ),
        (
            "Orc Warrior",
            Tier::Mob,
            4,
            3,
            &["Igniter"],
            None,
            &[],
            &["Ravager", "Hunter"],
        ),
        (
            "Chaos Zealot",
            Tier::Mob,
            4,
            2,
            &["Fearless", "Igniter"],
            None,
            &[],
            &["Fanatic"],
        ),
        (
            "Infernal Imp",
            Tier::Mob,
            4,
            1,
            &["Flying", "Igniter"],
            None,
            &[],
            &["Raider", "Ravager"],
        ),
        (
            "Blazing Skeleton",
            Tier::Mob,
            5,
            2,
            &["Undead", "Igniter"],
            None,
            &[],
            &["Fanatic", "Mindless"],
        ),
        (
            "Skeleton Warrior",
            Tier::Mob,
            5,
            2,
            &["Undead"],
            None,
            &[],
            &["Mindless"],
        ),
        (
            "Zombie",
            Tier::Mob,
            5,
            2,
            &["Undead", "Slow"],
            None,
            &[],
            &["Mindless"],
        ),
        (
            "Dire Wolf",
            Tier::Mob,
            4,
            2,
            &["Animal", "Long Move"],
            None,
            &[],
            &["Hunter"],
        ),
        (
            "Lizard Harpooner",
            Tier::Mob,
            4,
            2,
            &["Shooter"],
            Some("Harpoon"),
            &[],
            &["Guardian"],
        ),
        (
            "Orc Demolisher",
            Tier::Elite,
            4,
            3,
            &["Heavy Weapon", "Big", "Igniter"],
            None,
            &[],
            &["Ravager"],
        ),
        (
            "Fire Entity",
            Tier::Elite,
            4,
            3,
            &["Artificial", "Fearless", "Igniter"],
            None,
            &[],
            &["Ravager"],
        ),
        (
            "Ogre Brute",
            Tier::Elite,
            4,
            4,
            &["Big", "Terror"],
            None,
            &[],
            &["Hunter"],
        ),
        (
            "Goblin Shaman",
            Tier::Elite,
            4,
            2,
            &["Spellcaster"],
            None,
            &["Fireball", "Transfix"],
            &["Guardian", "Hunter"],
        ),
        (
            "Orc Warlord",
            Tier::Boss,
            3,
            5,
            &["Leader", "Tough", "Big"],
            None,
            &[],
            &["Hunter", "Ravager"],
        ),
        (
            "Lich",
            Tier::Boss,
            3,
            3,
            &["Undead", "Terror", "Spellcaster"],
            None,
            &["Raise Dead", "Transfix"],
            &["Guardian", "Fanatic"],
        ),
        (
            "Young Dragon",
            Tier::Boss,
            3,
            5,
            &["Huge", "Flying", "Terror", "Tough", "Igniter"],
            None,
            &[],
            &["Ravager"],
        ),
    ];
    let enemies: Vec<_> = r.profiles_of(ProfileKind::Enemy).collect();
    assert_eq!(enemies.len(), expected.len());
    for &(name, tier, q, c, traits, weapon, spells, behaviours) in expected {
        let p = r.profile(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(p.kind, ProfileKind::Enemy, "{name}");
        assert_eq!(p.tier, tier, "{name}");
        assert_eq!((p.quality, p.combat), (q, c), "{name}");
        assert_eq!(p.traits, s(traits), "{name}");
        assert_eq!(p.weapon.as_deref(), weapon, "{name}");
        assert_eq!(p.spells, s(spells), "{name}");
        assert_eq!(p.behaviours, s(behaviours), "{name}");
        assert_eq!(
            p.alpha.is_some(),
            tier != Tier::Mob,
            "{name}: Alpha Rule for Elites and Bosses"
        );
        assert_eq!(
            p.printed_wave_points,
            Some(p.wave_points),
            "{name}: printed = formula"
        );
    }
    // core §5.2: the Igniter list.
    let mut igniters: Vec<&str> = enemies
        .iter()
        .filter(|p| p.is_igniter())
        .map(|p| p.name.as_str())
        .collect();
    igniters.sort();
    assert_eq!(
        igniters,
        [
            "Blazing Skeleton",
            "Chaos Zealot",
            "Fire Entity",
            "Goblin Looter",
            "Infernal Imp",
            "Kobold Skirmisher",
            "Orc Demolisher",
            "Orc Warrior",
            "Young Dragon"
        ]
    );
    let alphas: Vec<_> = [
        "Orc Warlord",
        "Lich",
        "Young Dragon",
        "Ogre Brute",
        "Goblin Shaman",
        "Orc Demolisher",
        "Fire Entity",
    ]
    .iter()
    .map(|n| r.profile(n).unwrap().alpha.as_ref().unwrap().name.as_str())
    .collect();
    assert_eq!(
        alphas,
        [
            "Warcry",
            "Raise Dead",
            "Fire Breath",
            "Hurl",
            "Hex",
            "Breach",
            "Wildfire"
        ]
    );
}

#[test]
fn heroes_and_defenders_match_the_compendium() {
    let r = builtin();
    #[allow(clippy::type_complexity)]
    let expected: &[(&str, u8, &[&str], Option<&str>, &[&str], &str)] = &[
        (
            "Captain Maren",
            4,
            &["Hero", "Leader"],
            None,
            &[],
            "Hold the Line",
        ),
        (
            "Tobin the Marksman",
            3,
            &["Shooter", "Good Shot"],
            Some("Longbow"),
            &[],
            "Called Shot",
        ),
        (
            "Sister Ilse",
            2,
            &["Healer", "Cleric", "Spellcaster"],
            None,
            &["Heal", "Transfix"],
            "Sanctuary",
        ),
        (
            "Bram the Smith",
            4,
            &["Heavy Armor"],
            None,
            &[],
            "Field Repairs",
        ),
        (
            "Wren the Scout",
            3,
            &["Long Move", "Stealth", "Forester"],
            None,
            &[],
            "Pathfinder",
        ),
        (
            "Hedda the Hedge Witch",
            2,
            &["Spellcaster"],
            None,
            &["Fireball", "Thorn Wall"],
            "Smother",
        ),
        (
            "Sir Roland",
            4,
            &["Hero", "Mounted", "Heavy Armor"],
            None,
            &[],
            "Ride Down",
        ),
        (
            "Grimm the Trapper",
            3,
            &["Shooter"],
            Some("Short Bow"),
            &[],
            "Snare Master",
        ),
    ];
    assert_eq!(r.profiles_of(ProfileKind::Hero).count(), expected.len());
    for &(name, c, traits, weapon, spells, signature) in expected {
        let p = r.profile(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!((p.kind, p.tier), (ProfileKind::Hero, Tier::Hero));
        assert_eq!((p.quality, p.combat), (3, c), "{name}");
        assert!(p.has_trait("Tough"), "{name} is Tough");
        for t in traits {
            assert!(p.has_trait(t), "{name} has {t}");
        }
        assert_eq!(
            p.traits.len(),
            traits.len() + 1,
            "{name}: exactly its traits and Tough"
        );
        assert_eq!(p.weapon.as_deref(), weapon, "{name}");
        assert_eq!(p.spells, s(spells), "{name}");
        assert_eq!(p.signature.as_ref().unwrap().name, signature);
    }
    let archer = r.profile("Village Archer").unwrap();
    assert_eq!(
        (archer.kind, archer.tier, archer.quality, archer.combat),
        (ProfileKind::Defender, Tier::Defender, 4, 2)
    );
    assert_eq!(
        (archer.traits.clone(), archer.weapon.as_deref()),
        (s(&["Shooter"]), Some("Short Bow"))
    );
    let rider = r.profile("Village Rider").unwrap();
    assert_eq!(
        (rider.quality, rider.combat, rider.traits.clone()),
        (4, 2, s(&["Mounted", "Long Move"]))
    );
    assert_eq!(rider.move_band(), Measure::Long);
}

#[test]
fn worked_wave_points() {
    let r = builtin();
    for (name, wp) in [
        ("Goblin Looter", 18),
        ("Kobold Skirmisher", 14),
        ("Zombie", 8),
        ("Village Archer", 21),
    ] {
        assert_eq!(r.profile(name).unwrap().wave_points, wp, "{name}");
    }
    assert_eq!(r.wave_points_of(3, 4, &s(&["Hero", "Tough"]), None), 100);
    assert_eq!(r.party_value(3), 300);
}

#[test]
fn rule_tables_are_present() {
    let r = builtin();
    let m = &r.rules.measures;
    assert_eq!((m.short, m.medium, m.long), (3.0, 6.0, 9.0));
    assert_eq!((r.rules.table.width, r.rules.table.height), (36.0, 36.0));
    assert_eq!(r.rules.bases.contact_tolerance, 0.05);
    assert_eq!(r.rules.structures.building_structure, 3);
    assert_eq!(r.rules.wave.max_rounds, 40);
    assert_eq!(r.rules.tough.defeated_at_quality, 7);
    assert_eq!(
        (
            r.rules.combat.gruesome_multiplier,
            r.rules.combat.defeated_multiplier
        ),
        (3, 2)
    );
    assert_eq!(
        (
            r.rules.actions.power_blow,
            r.rules.actions.aimed_shot,
            r.rules.actions.break_free
        ),
        (2, 2, 2)
    );
    assert_eq!((r.rules.ranged.undead, r.rules.melee.defenseless), (-2, 2));
    assert_eq!(
        (r.trap.combat, r.trap.trigger_radius, r.trap.cost),
        (3, 2.0, 1)
    );
    assert_eq!(
        (
            r.barricade.length,
            r.barricade.integrity,
            r.barricade.structure,
            r.barricade.cost
        ),
        (3.0, 2, 2, 1)
    );
    let longbow = r.weapon("Longbow").unwrap();
    assert_eq!(longbow.bands.as_ref().unwrap().modifiers, [1, 0, -2]);

    // Base sizes and movement bands from traits.
    let dragon = r.profile("Young Dragon").unwrap();
    assert_eq!(dragon.base_diameter(&r.rules), 2.0);
    assert_eq!(
        r.profile("Ogre Brute").unwrap().base_diameter(&r.rules),
        1.5
    );
    assert_eq!(r.profile("Zombie").unwrap().base_diameter(&r.rules), 1.0);
    assert_eq!(r.profile("Zombie").unwrap().move_band(), Measure::Medium);
    assert_eq!(r.profile("Dire Wolf").unwrap().move_band(), Measure::Long);

    // Buildings (SUPPLEMENT §1, §6; core §7.3).
    let b: Vec<_> = r
        .buildings
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.width,
                b.height,
                b.integrity,
                b.level_ii_cost,
                b.level_iii_cost,
            )
        })
        .collect();
    assert_eq!(
        b,
        [
            ("Town Hall", 6.0, 4.0, 8, 4, 6),
            ("Forge", 4.0, 3.0, 5, 3, 5),
            ("Temple", 4.0, 4.0, 5, 3, 5),
            ("Watchtower", 3.0, 3.0, 4, 3, 5),
            ("Stable", 5.0, 3.0, 4, 3, 5),
        ]
    );
    assert_eq!(r.town_hall().name, "Town Hall");
    for bld in &r.buildings {
        for level in 1..=3 {
            assert_eq!(
                bld.abilities_at(level).count(),
                1,
                "{} level {level}",
                bld.name
            );
        }
    }

    // Escalation and lengths (SUPPLEMENT §5).
    let budgets: Vec<_> = r
        .escalation
        .iter()
        .map(|e| (e.name.as_str(), e.budget_percent))
        .collect();
    assert_eq!(
        budgets,
        [
            ("I", 40),
            ("II", 55),
            ("III", 70),
            ("IV", 85),
            ("V", 100),
            ("VI", 120),
            ("VII", 140)
        ]
    );
    let vii = r.escalation("VII").unwrap();
    assert!(vii.boss_first && vii.min_groups == 3 && vii.min_behaviours == 2);
    assert_eq!(r.escalation("II").unwrap().budget(300), 165);
    let siege: Vec<_> = r
        .waves("siege")
        .unwrap()
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(
        siege,
        ["I", "II", "III", "III", "IV", "V", "V", "VI", "VI", "VII"]
    );
    assert_eq!(r.waves("intro").unwrap().len(), 5);
    assert_eq!(r.waves("standard").unwrap().len(), 7);

    // Behaviours in play order; Mindless and Guardian: one action, no turnover.
    let order: Vec<_> = r
        .behaviours
        .iter()
        .map(|b| (b.name.as_str(), b.max_actions, b.turnover))
        .collect();
    assert_eq!(
        order,
        [
            ("Fanatic", 3, true),
            ("Ravager", 3, true),
            ("Hunter", 3, true),
            ("Raider", 3, true),
            ("Mindless", 1, false),
            ("Guardian", 1, false),
        ]
    );

    // Opportunities cover 1-6.
    let rolls: Vec<_> = r
        .opportunities
        .iter()
        .map(|o| (o.roll, o.name.as_str()))
        .collect();
    assert_eq!(
        rolls,
        [
            (1, "Ambush"),
            (2, "Supply Cache"),
            (3, "Herb Patch"),
            (4, "Potion of Healing"),
            (5, "Lost Villagers"),
            (6, "Relic Blade"),
        ]
    );
    let spells: Vec<_> = r.spells.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        spells,
        [
            "Transfix",
            "Fireball",
            "Heal",
            "Thorn Wall",
            "Raise Dead",
            "Break Enchantment"
        ]
    );
    assert_eq!(r.trait_named("Igniter").unwrap().cost, 2);
    assert_eq!(r.traits.len(), 33);
}

#[test]
fn a_mod_adds_and_replaces_profiles_and_overrides_one_rule_key() {
    let m = ModDir::new("layering");
    m.write(
        "rosters/bestiary.toml",
        r#"
[[enemy]]
name = "Zombie"
tier = "mob"
quality = 6
combat = 3
traits = ["Undead"]
behaviours = ["Mindless"]

[[enemy]]
name = "Goblin Sapper"
tier = "mob"
quality = 4
combat = 2
traits = ["Heavy Weapon", "Igniter"]
behaviours = ["Ravager"]
wave_points = 21
"#,
    )
    .write("rosters/rules.toml", "[measures]\nlong = 10.0\n")
    .write(
        "rosters/opportunities.toml",
        "[[opportunity]]\nroll = 3\nname = \"Mushroom Ring\"\ntiming = \"now\"\ntext = \"Nothing happens.\"\n",
    );
    let r = Rosters::load(&m.layers()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);

    let zombie = r.profile("Zombie").unwrap();
    assert_eq!(
        (zombie.quality, zombie.combat, zombie.traits.clone()),
        (6, 3, s(&["Undead"]))
    );
    assert_eq!(zombie.wave_points, 9); // ceil((15 + 3) × 1 / 2)
    assert_eq!(zombie.printed_wave_points, None);
    let sapper = r.profile("Goblin Sapper").unwrap();
    assert_eq!(sapper.wave_points, 21);
    // Replaced in place, new appended after the built-in enemies; counts unchanged otherwise.
    let enemies: Vec<_> = r
        .profiles_of(ProfileKind::Enemy)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(enemies.len(), 18);
    assert_eq!(enemies[7], "Zombie");
    assert_eq!(enemies[17], "Goblin Sapper");

    // One key overridden, its neighbours kept.
    assert_eq!(r.rules.measures.long, 10.0);
    assert_eq!(
        (r.rules.measures.short, r.rules.measures.medium),
        (3.0, 6.0)
    );
    assert_eq!(r.rules.wave.max_rounds, 40);

    // Opportunities layer by roll.
    assert_eq!(r.opportunities.len(), 6);
    assert_eq!(r.opportunity(3).unwrap().name, "Mushroom Ring");

    // The built-in layer alone is untouched.
    assert_eq!(builtin().rules.measures.long, 9.0);
}

#[test]
fn unknown_field_names_file_entry_field_and_line() {
    let m = ModDir::new("unknown-field");
    let text = "[[enemy]]\nname = \"Goblin Looter\"\ntier = \"mob\"\nquality = 4\ncombat = 2\nspeed = 5\ntraits = [\"Igniter\"]\nbehaviours = [\"Raider\"]\n";
    m.write("rosters/bestiary.toml", text);
    let errors = errors_of(&m.layers());
    let e = errors
        .iter()
        .find(|e| e.contains("speed"))
        .unwrap_or_else(|| panic!("{errors:?}"));
    let file = m
        .path()
        .join("rosters")
        .join("bestiary.toml")
        .display()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "{file}: entry \"Goblin Looter\", field \"speed\": unknown field"
        )),
        "{e}"
    );
    assert!(e.contains("expected one of"), "{e}");
    assert!(
        e.ends_with(&format!("(line {})", line_containing(text, "speed"))),
        "{e}"
    );
}

#[test]
fn unknown_field_in_rules_and_in_a_nested_ability() {
    let m = ModDir::new("unknown-nested");
    m.write("rosters/rules.toml", "[measures]\nshrt = 2.0\n").write(
        "rosters/heroes.toml",
        "[[hero]]\nname = \"Bram the Smith\"\nquality = 3\ncombat = 4\ntraits = [\"Tough\"]\n[hero.signature]\nname = \"X\"\ntext = \"Y\"\nscirpt = \"a.lua\"\n",
    );
    let errors = errors_of(&m.layers());
    assert!(
        errors.iter().any(|e| e
            .contains("rules.toml: entry \"measures\", field \"shrt\": unknown field")
            && e.ends_with("(line 2)")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains(
            "heroes.toml: entry \"Bram the Smith\", field \"signature.scirpt\": unknown field"
        ) && e.ends_with("(line 9)")),
        "{errors:?}"
    );
}

#[test]
fn unknown_trait_names_file_entry_field_and_line() {
    let m = ModDir::new("unknown-trait");
    let text = "\n[[enemy]]\nname = \"Goblin Looter\"\ntier = \"mob\"\nquality = 4\ncombat = 2\ntraits = [\n  \"Igniter\",\n  \"Savge\",\n]\nbehaviours = [\"Raider\", \"Lurker\"]\nwave_points = 18\n";
    m.write("rosters/bestiary.toml", text);
    let errors = errors_of(&m.layers());
    let file = m
        .path()
        .join("rosters")
        .join("bestiary.toml")
        .display()
        .to_string();
    let want = format!(
        "{file}: entry \"Goblin Looter\", field \"traits\": unknown trait \"Savge\" (did you mean \"Savage\"?) (line {})",
        line_containing(text, "Savge")
    );
    assert!(errors.contains(&want), "{errors:?}");
    // Every error is collected, not just the first.
    assert!(
        errors
            .iter()
            .any(|e| e.contains("field \"behaviours\": unknown Behaviour \"Lurker\"")),
        "{errors:?}"
    );
}

#[test]
fn nonexistent_script_is_an_error_and_an_existing_one_is_not() {
    let m = ModDir::new("script");
    let text = "[[trait]]\nname = \"Savage\"\ncost = 3\ntext = \"Gruesome on 2x.\"\nscript = \"traits/savage.lua\"\n\n[[trait]]\nname = \"Brutal\"\ncost = 4\ntext = \"x\"\nscript = \"traits/brutal.lua\"\n";
    m.write("rosters/traits.toml", text)
        .write("scripts/traits/savage.lua", "return {}\n");
    let errors = errors_of(&m.layers());
    let file = m
        .path()
        .join("rosters")
        .join("traits.toml")
        .display()
        .to_string();
    assert_eq!(
        errors,
        [format!(
            "{file}: entry \"Brutal\", field \"script\": script \"traits/brutal.lua\" not found in scripts/ of any layer (line {})",
            line_containing(text, "brutal.lua")
        )]
    );

    // A path escaping scripts/ is refused even if the file exists.
    let m2 = ModDir::new("script-escape");
    m2.write(
        "rosters/bestiary.toml",
        "[[enemy]]\nname = \"Lich\"\ntier = \"boss\"\nquality = 3\ncombat = 3\ntraits = [\"Undead\"]\nbehaviours = [\"Guardian\"]\nalpha = { name = \"Raise Dead\", text = \"x\", script = \"../rosters/bestiary.toml\" }\n",
    );
    let errors = errors_of(&m2.layers());
    assert!(
        errors.iter().any(|e| e.contains(
            "entry \"Lich\", field \"alpha.script\": script path \"../rosters/bestiary.toml\""
        )),
        "{errors:?}"
    );
}

#[test]
fn wrong_type_names_the_field() {
    let m = ModDir::new("wrong-type");
    let text = "[[enemy]]\nname = \"Orc Warrior\"\ntier = \"mob\"\nquality = \"four\"\ncombat = 3\nbehaviours = [\"Hunter\"]\n";
    m.write("rosters/bestiary.toml", text);
    let errors = errors_of(&m.layers());
    let e = errors
        .iter()
        .find(|e| e.contains("Orc Warrior"))
        .unwrap_or_else(|| panic!("{errors:?}"));
    assert!(
        e.contains("entry \"Orc Warrior\", field \"quality\": invalid type: string \"four\""),
        "{e}"
    );
    assert!(e.ends_with("(line 4)"), "{e}");
}

#[test]
fn out_of_range_and_inconsistent_profiles_are_errors() {
    let m = ModDir::new("ranges");
    m.write(
        "rosters/bestiary.toml",
        r#"
[[enemy]]
name = "Bad Shot"
tier = "elite"
quality = 7
combat = 9
traits = ["Shooter"]
behaviours = []

[[enemy]]
name = "Bowman"
tier = "mob"
quality = 4
combat = 2
weapon = "Short Bow"
behaviours = ["Hunter"]
"#,
    );
    let errors = errors_of(&m.layers()).join("\n");
    for want in [
        "entry \"Bad Shot\", field \"quality\": 7 is outside the valid range 2 to 6 (Quality",
        "entry \"Bad Shot\", field \"combat\": 9 is outside the valid range 0 to 6 (Combat)",
        "entry \"Bad Shot\", field \"weapon\": trait \"Shooter\" needs a weapon",
        "entry \"Bad Shot\", field \"behaviours\": an enemy profile needs at least one Behaviour",
        "entry \"Bad Shot\", field \"alpha\": every elite needs an Alpha Rule",
        "entry \"Bowman\", field \"weapon\": weapon \"Short Bow\" given but no trait that uses one",
    ] {
        assert!(errors.contains(want), "missing {want:?} in\n{errors}");
    }
}

#[test]
fn printed_cost_mismatch_is_a_warning_naming_both_numbers() {
    let m = ModDir::new("printed");
    let text = "[[enemy]]\nname = \"Goblin Looter\"\ntier = \"mob\"\nquality = 4\ncombat = 2\ntraits = [\"Igniter\"]\nbehaviours = [\"Raider\"]\nwave_points = 20\n";
    m.write("rosters/bestiary.toml", text);
    let r = Rosters::load(&m.layers()).unwrap_or_else(|e| panic!("{e}"));
    let file = m
        .path()
        .join("rosters")
        .join("bestiary.toml")
        .display()
        .to_string();
    let warnings: Vec<String> = r.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [format!(
            "{file}: entry \"Goblin Looter\", field \"wave_points\": printed cost 20 differs from the formula's 18 (line 8)"
        )]
    );
    // The wave builder spends the printed cost.
    assert_eq!(r.profile("Goblin Looter").unwrap().cost(), 20);
    let report = check(&m.layers());
    assert!(report.ok());
    assert_eq!(report.warnings, warnings);
}

#[test]
fn syntax_errors_and_unknown_tables_name_the_file_and_line() {
    let m = ModDir::new("syntax");
    m.write(
        "rosters/spells.toml",
        "[[spell]]\nname = \"Zap\"\nkinds = [\"attack\"\n",
    )
    .write("rosters/weapons.toml", "\n[[weapons]]\nname = \"Sling\"\n");
    let errors = errors_of(&m.layers());
    assert!(
        errors
            .iter()
            .any(|e| e.contains("spells.toml: TOML syntax error") && e.contains("(line ")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(
            |e| e.contains("weapons.toml: unknown table `weapons`, expected `weapon` (line 2)")
        ),
        "{errors:?}"
    );
}

#[test]
fn check_report_shape_and_text() {
    let report = check(&[Rosters::builtin_root()]);
    let json = serde_json::to_value(&report).unwrap();
    let obj = json.as_object().unwrap();
    assert!(obj["warnings"].as_array().unwrap().is_empty());
    assert!(obj["errors"].as_array().unwrap().is_empty());
    let profiles = obj["profiles"].as_array().unwrap();
    let kobold = profiles
        .iter()
        .find(|p| p["name"] == "Kobold Skirmisher")
        .unwrap();
    assert_eq!(kobold["kind"], "enemy");
    assert_eq!(kobold["tier"], "mob");
    assert_eq!(kobold["quality"], 4);
    assert_eq!(kobold["combat"], 1);
    assert_eq!(kobold["traits"], serde_json::json!(["Shooter", "Igniter"]));
    assert_eq!(kobold["wave_points"], 14);
    assert_eq!(kobold["weapon"], "Javelins");
    let maren = profiles
        .iter()
        .find(|p| p["name"] == "Captain Maren")
        .unwrap();
    assert_eq!(
        (maren["kind"].as_str(), maren["tier"].as_str()),
        (Some("hero"), Some("hero"))
    );
    let archer = profiles
        .iter()
        .find(|p| p["name"] == "Village Archer")
        .unwrap();
    assert_eq!(
        (archer["kind"].as_str(), archer["tier"].as_str()),
        (Some("defender"), Some("defender"))
    );

    let text = report.to_text();
    let header = text.lines().next().unwrap();
    for col in [
        "name",
        "kind",
        "tier",
        "Q",
        "C",
        "traits",
        "WP",
        "printed",
        "Behaviour",
    ] {
        assert!(header.contains(col), "{header}");
    }
    let row = text
        .lines()
        .find(|l| l.starts_with("Kobold Skirmisher"))
        .unwrap();
    assert!(
        row.contains("Shooter (Javelins), Igniter") && row.contains("Hunter"),
        "{row}"
    );
    // Columns align: "traits" starts at the same offset in the header and every row.
    let col = header.find("traits").unwrap();
    assert_eq!(&row[col..col + "Shooter".len()], "Shooter");
    assert!(text.contains("27 profiles, 0 warnings, 0 errors"), "{text}");

    // A report with errors is not ok and lists them.
    let m = ModDir::new("report-errors");
    m.write("rosters/bestiary.toml", "[[enemy]]\nname = \"Zombie\"\ntier = \"mob\"\nquality = 5\ncombat = 2\ntraits = [\"Savge\"]\nbehaviours = [\"Mindless\"]\n");
    let bad = check(&m.layers());
    assert!(!bad.ok());
    assert_eq!(bad.errors.len(), 1, "{:?}", bad.errors);
    assert!(bad.to_text().contains("unknown trait \"Savge\""));
    assert_eq!(
        bad.profiles.len(),
        27,
        "profiles that parsed are still listed"
    );
}

#[test]
fn loading_is_deterministic() {
    let a = serde_json::to_string(&builtin()).unwrap();
    let b = serde_json::to_string(&builtin()).unwrap();
    assert_eq!(a, b);
}

/// A full copy of the built-in rosters (and the scripts they name) as a first layer, to test tables a mod
/// cannot remove rows from.
fn builtin_copy(tag: &str) -> ModDir {
    let m = ModDir::new(tag);
    for e in std::fs::read_dir(Rosters::builtin_root().join("rosters")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), m.path().join("rosters").join(e.file_name())).unwrap();
    }
    copy_tree(
        &Rosters::builtin_root().join("scripts"),
        &m.path().join("scripts"),
    );
    m
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn edit(m: &ModDir, file: &str, f: impl FnOnce(String) -> String) {
    let p = m.path().join("rosters").join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(p, f(text)).unwrap();
}

#[test]
fn incomplete_tables_are_errors() {
    let m = builtin_copy("incomplete");
    assert!(
        Rosters::load(&[m.path().to_path_buf()]).is_ok(),
        "an exact copy loads"
    );
    edit(&m, "escalation.toml", |t| {
        let t = t.replace("name = \"VII\"", "name = \"VIII\"");
        t.replace(
            "waves = [\"I\", \"II\", \"III\", \"IV\", \"V\"]",
            "waves = [\"I\", \"IX\"]",
        )
    });
    edit(&m, "opportunities.toml", |t| {
        t.replace("roll = 6", "roll = 7")
    });
    edit(&m, "village.toml", |t| {
        t.replace("town_hall = true", "")
            .replace("name = \"Temple\"", "name = \"Forge\"")
    });
    edit(&m, "behaviours.toml", |t| {
        t.replace("order = 6", "order = 5")
    });
    let errors = match Rosters::load(&[m.path().to_path_buf()]) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.to_string(),
    };
    for want in [
        "rosters/escalation.toml: Escalation \"VII\" is missing",
        "rosters/escalation.toml: entry \"intro\", field \"waves\": unknown Escalation \"IX\"",
        "rosters/opportunities.toml: entry \"Relic Blade\", field \"roll\": 7 is outside the valid range 1 to 6 (a face of a D6)",
        "rosters/opportunities.toml: the Opportunity table has no row for roll 6",
        "rosters/village.toml: entry \"Forge\", field \"name\": duplicate name \"Forge\": already defined at line",
        "rosters/village.toml: exactly one building must have town_hall = true, found 0",
        "rosters/behaviours.toml: entry \"Guardian\", field \"order\": order 5 is also used by \"Mindless\"",
        // The VII-only length rows now point at a missing Escalation too.
        "entry \"standard\", field \"waves\": unknown Escalation \"VII\"",
    ] {
        assert!(errors.contains(want), "missing {want:?} in\n{errors}");
    }
    // A missing file of the built-in layer is an error; a missing file of a mod is not.
    std::fs::remove_file(m.path().join("rosters/spells.toml")).unwrap();
    let errors = match Rosters::load(&[m.path().to_path_buf()]) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.to_string(),
    };
    assert!(errors.contains("rosters/spells.toml: missing"), "{errors}");
}

#[test]
fn params_references_are_checked_and_typed() {
    let r = builtin();
    use village::roster::ParamValue;
    let breath = r.profile("Young Dragon").unwrap().alpha.clone().unwrap();
    assert_eq!(breath.params["combat"], ParamValue::Int(3));
    assert_eq!(breath.params["within"], ParamValue::Text("short".into()));
    let militia = r.town_hall().abilities_at(3).next().unwrap();
    assert_eq!(militia.params["within"], ParamValue::Float(6.0));

    let m = ModDir::new("params");
    m.write(
        "rosters/opportunities.toml",
        "[[opportunity]]\nroll = 1\nname = \"Ambush\"\ntiming = \"now\"\ntext = \"x\"\nparams = { profile = \"Goblin Lootr\", behaviour = \"Hunter\" }\n",
    );
    let errors = errors_of(&m.layers());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(
            "entry \"Ambush\", field \"params.profile\": unknown profile \"Goblin Lootr\" (did you mean \"Goblin Looter\"?) (line 6)"
        ),
        "{errors:?}"
    );
}

#[test]
fn a_script_outside_the_folders_the_loader_reads_is_an_error_naming_the_field() {
    // The file exists, but the loader reads only files directly in scripts/<kind>/: a signature named
    // at scripts/heroes/ or in a subfolder would pass an existence check and never run.
    for (path, tag) in [
        ("heroes/stand_fast.lua", "script-folder"),
        ("signatures/extra/stand_fast.lua", "script-subfolder"),
    ] {
        let m = ModDir::new(tag);
        let text = format!(
            "[[hero]]\nname = \"Test Warden\"\nquality = 3\ncombat = 3\ntraits = [\"Tough\"]\n\n\
             [hero.signature]\nname = \"Stand Fast\"\ntext = \"x\"\nscript = \"{path}\"\n"
        );
        m.write("rosters/heroes.toml", &text);
        m.write(&format!("scripts/{path}"), "return {}\n");
        let errors = errors_of(&m.layers());
        let file = m
            .path()
            .join("rosters")
            .join("heroes.toml")
            .display()
            .to_string();
        assert_eq!(
            errors,
            [format!(
                "{file}: entry \"Test Warden\", field \"signature.script\": script \"{path}\" would never \
                 run: a signature's script must be a file directly in scripts/signatures/, scripts/traits/ \
                 or scripts/alpha/ (line {})",
                line_containing(&text, "script =")
            )]
        );
    }
    // The same file in scripts/signatures/ loads.
    let m = ModDir::new("script-placed");
    m.write(
        "rosters/heroes.toml",
        "[[hero]]\nname = \"Test Warden\"\nquality = 3\ncombat = 3\ntraits = [\"Tough\"]\n\
         signature = { name = \"Stand Fast\", text = \"x\", script = \"signatures/stand_fast.lua\" }\n",
    );
    m.write("scripts/signatures/stand_fast.lua", "return {}\n");
    if let Err(e) = Rosters::load(&m.layers()) {
        panic!("{e}");
    }
}

#[test]
fn the_script_folders_rosters_accept_are_folders_the_loader_reads_with_the_right_hooks() {
    use village::roster::SCRIPT_FOLDERS;
    use village::script::registry::KINDS;
    for (what, folders) in SCRIPT_FOLDERS {
        // The entry point the kernel calls first for a script of this roster kind.
        let hook = match *what {
            "trait" | "signature" | "alpha" => "melee_modifier",
            "spell" => "cast",
            "behaviour" => "target",
            "opportunity" => "claim",
            other => panic!("SCRIPT_FOLDERS names {other:?}: say here which hook the kernel calls"),
        };
        for f in folders.iter() {
            let entries = KINDS
                .iter()
                .find(|(k, _)| k == f)
                .map(|(_, e)| *e)
                .unwrap_or_else(|| {
                    panic!("scripts/{f}/ (for a {what}) is not a folder the loader reads")
                });
            assert!(
                entries.contains(&hook),
                "scripts/{f}/ cannot define `{hook}`, which a {what}'s script needs"
            );
        }
    }
}
