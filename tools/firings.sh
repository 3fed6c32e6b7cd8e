#!/usr/bin/env bash
# What fires in real games of `village play --auto`, over SEEDS seeds of each party below, Standard and
# Siege. Needs python3. Prints three Markdown tables:
#   1. each signature, Alpha Rule and Opportunity script: the logged events that name it as their source
#      (a modifier, a changed result, a spent use, a granted effect, a reroll, a scripted action, a fire,
#      a summoning, a claim...) and in how many games;
#   2. each spell cast (`spell` events), by spell and by the caster's profile;
#   3. the rules of the turn engine a game reaches, counted from the log (re-nominations, group
#      activations, declarations, breaking free, free Javelin throws, the Ambush bonus, Concentrated
#      Shooting, Walls, objectives, compelled movement slowed by terrain, game endings by cause, and
#      issue 37's movement: moves stopped by contact, a band lost at a corner or to terrain, blocked
#      fall-backs, Free Hacks, rollless snares, double failures without turnover).
#   cargo build --release && tools/firings.sh 50
# LENGTHS (default "standard siege") and PARTY (one party instead of the three) narrow it, e.g.
#   LENGTHS=standard PARTY="Captain Maren,Sister Ilse,Hedda the Hedge Witch,Bram the Smith" tools/firings.sh 100
set -euo pipefail
SEEDS=${1:-50}
BIN=${BIN:-target/release/village}
read -r -a lengths <<<"${LENGTHS:-standard siege}"
if [ -n "${PARTY:-}" ]; then
    parties=("$PARTY")
else
    parties=("Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
        "Hedda the Hedge Witch,Sir Roland,Wren the Scout,Grimm the Trapper"
        "Captain Maren,Sister Ilse,Hedda the Hedge Witch,Bram the Smith")
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
n=0
for length in "${lengths[@]}"; do
    for party in "${parties[@]}"; do
        for seed in $(seq 1 "$SEEDS"); do
            n=$((n + 1))
            "$BIN" play --auto --length "$length" --heroes "$party" --seed "$seed" \
                --log "$logs/$n.jsonl" --json >"$logs/$n.json"
        done
    done
done
python3 - "$logs" "$n" "${#parties[@]}" "${lengths[*]}" <<'PY'
import collections, json, os, sys, tomllib
folder, games, parties, lengths = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
# The heroes' side by profile name (heroes and Village Defenders); every other model is an enemy.
heroes_side = set()
for f, key in (("rosters/heroes.toml", "hero"), ("rosters/defenders.toml", "defender")):
    with open(f, "rb") as fh:
        heroes_side |= {p["name"] for p in tomllib.load(fh)[key]}
kinds = ("scripts/signatures/", "scripts/alpha/", "scripts/opportunities/")
count, in_games = collections.Counter(), collections.Counter()
spells, spell_games = collections.Counter(), collections.Counter()
rules, rule_games = collections.Counter(), collections.Counter()

def scripts_in(v, found):
    if isinstance(v, str):
        for k in kinds:
            i = v.find(k)
            if i >= 0:
                found.add(v[i:].split()[0].rstrip(")"))
    elif isinstance(v, dict):
        for x in v.values():
            scripts_in(x, found)
    elif isinstance(v, list):
        for x in v:
            scripts_in(x, found)

for name in sorted(os.listdir(folder)):
    if not name.endswith(".jsonl"):
        continue
    seen, seen_spells, seen_rules = set(), set(), set()
    names, side = {}, {}
    # Per side's turn: who has activated (a second activation is a re-nomination, §3.1). A turn ends
    # when the other side activates or a new wave is built.
    activated, turn_side = set(), None
    def rule(key):
        rules[key] += 1
        seen_rules.add(key)
    for line in open(os.path.join(folder, name)):
        e = json.loads(line)
        if e.get("event") == "decision":
            continue  # a script's reasons, not an event of play (`sim --decisions` counts them)
        found = set()
        scripts_in(e, found)
        count.update(found)
        seen |= found
        k = e.get("event")
        if k in ("placed", "summoned") and "name" in e:
            names[e["model"]] = e["name"]
        if k == "wave_built":
            activated, turn_side = set(), None
        elif k == "activation":
            m = e["model"]
            s = names.get(m) in heroes_side
            if s != turn_side:
                activated, turn_side = set(), s
            if m in activated:
                rule("re-nomination (§3.1), " + ("heroes" if s else "enemies"))
            activated.add(m)
        elif k == "group_activation" and e.get("leader") is not None:
            rule("a Leader's group activation (§3.1)")
        elif k == "spell":
            who = names.get(e["caster"], "model %d" % e["caster"])
            key = (e["spell"], who)
            spells[key] += 1
            seen_spells.add(key)
        elif k == "declared":
            rule("spellcasting declared (§3.7)")
        elif k == "out_of_power":
            rule("out of power (§3.7)")
        elif k == "wall_raised":
            rule("Wall raised (§3.7)")
        elif k == "wall_fallen":
            rule("Wall falls: " + e.get("reason", ""))
        elif k == "task_progress" and "break free" in e.get("task", "") and e.get("complete"):
            rule("broke free (§3.7)")
        elif k == "free_throw":
            rule("free Javelin throw (§3.5)")
        elif k == "objective":
            rule("objective re-assigned (§6.3)" if e.get("lost") else "objective assigned at deployment (§6.3)")
        elif k == "combat":
            for mod in e.get("modifiers", []):
                r = mod.get("reason", "")
                if r == "Ambush":
                    rule("Ambush bonus (§3.4)")
                elif r.startswith("Concentrated Shooting"):
                    rule("Concentrated Shooting (§3.5)")
        elif k == "morale" and "one band less" in e.get("detail", ""):
            rule("compelled movement slowed by terrain (§3.6)")
        if k == "moved":
            kind, stop = e.get("kind", "move"), e.get("stop", "")
            if kind == "move" and stop == "contact":
                rule("a move action stopped by contact (SUPPLEMENT §11)")
            if kind == "move" and e.get("band_lost"):
                rule("terrain took a band from a move action (§3.3)")
            if kind == "move" and stop == "reached" and e.get("reach") is not None:
                a, b = e["from"], e["to"]
                if ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 < e["reach"] - 0.01:
                    rule("a move action ended at a corner or its destination, the rest of its band lost (SUPPLEMENT §11)")
            if kind == "fall_back" and stop == "blocked":
                rule("compelled movement blocked by what it may not pass (SUPPLEMENT §11)")
        elif k == "combat" and e.get("free_hack"):
            rule("Free Hack on a model leaving melee (§3.3, §3.6)")
        elif k == "trap" and e.get("trap_die") is None:
            rule("a snare Entangles with no roll (SUPPLEMENT §11)")
        elif k == "activation" and e.get("failures", 0) >= 2 and not e.get("turnover"):
            rule("two failures and no turnover (Mindless or Guardian, §6.2)")
    in_games.update(seen)
    spell_games.update(seen_spells)
    rule_games.update(seen_rules)
    summary = json.load(open(os.path.join(folder, name[:-1])))
    cause = summary.get("cause", "?")
    rules["game ended: " + cause] += 1
    rule_games["game ended: " + cause] += 1

print(f"{games} games ({lengths}; {parties} part{'y' if parties == '1' else 'ies'})")
print()
print("| script | events | games |")
print("|---|---|---|")
for s in sorted(count):
    print(f"| {s} | {count[s]} | {in_games[s]} |")
print()
print("| spell | cast by | casts | games |")
print("|---|---|---|---|")
for (s, who) in sorted(spells):
    print(f"| {s} | {who} | {spells[(s, who)]} | {spell_games[(s, who)]} |")
print()
print("| rule | times | games |")
print("|---|---|---|")
for r in sorted(rules):
    print(f"| {r} | {rules[r]} | {rule_games[r]} |")
PY
