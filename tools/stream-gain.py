#!/usr/bin/env python3
"""What per-purpose dice streams buy an A/B of a small change (issue 42, part 4).

Two changes, each a mod folder over the built-in data:
  enemy   a new enemy in the pool (the example enemy `village new-mod` writes);
  combat  Captain Maren's Combat 4 -> 5 (the point folder of `village sweep --points`).
For each village binary given (the build before the streams were split, and the one after):
  * the share of games whose logs are identical up to the first use of the changed element (the new
    enemy placed or picked; a combat with Maren in it), over `play --auto` of seeds 1..GAMES_LOG;
  * the paired difference in waves won (changed - base) over `sim --games GAMES` and its 95% interval,
    from the records `sim --out` writes.

    tools/stream-gain.py BEFORE_BINARY AFTER_BINARY [GAMES] [GAMES_LOG]

Run from the checkout; both binaries read the checkout's data (VILLAGE_DATA).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, args, **kw):
    env = dict(os.environ, VILLAGE_DATA=ROOT)
    return subprocess.run([binary] + args, env=env, check=True, capture_output=True, text=True, **kw)


def events(binary, seed, mod):
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        path = f.name
    args = ["play", "--auto", "--seed", str(seed), "--log", path]
    if mod:
        args += ["--mod", mod]
    run(binary, args)
    out = []
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            e.pop("seq", None)
            # A choice lists its options, which name the new enemy whether or not it is picked: what
            # is compared is what was picked.
            e.pop("options", None)
            out.append(e)
    os.unlink(path)
    return out


def first_use_enemy(name):
    def used(e):
        if e.get("event") == "placed" and e.get("profile") == name:
            return True
        return e.get("event") == "choice" and e.get("picked") == name
    return used


def first_use_combat(evs):
    maren = next(e["model"] for e in evs if e.get("event") == "placed" and e.get("profile") == "Captain Maren")

    def used(e):
        if e.get("event") != "combat":
            return False
        t = e.get("target") or {}
        return e.get("attacker") == maren or t.get("model") == maren
    return used


def identical_share(binary, mod, kind, name, games):
    same = 0
    for seed in range(1, games + 1):
        a, b = events(binary, seed, None), events(binary, seed, mod)
        used = first_use_enemy(name) if kind == "enemy" else first_use_combat(b)
        first = next((i for i, e in enumerate(b) if used(e)), len(b))
        differ = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        if differ >= first:
            same += 1
    return same / games


def records(binary, games, mod):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    args = ["sim", "--games", str(games), "--seed", "1", "--out", path]
    if mod:
        args += ["--mod", mod]
    run(binary, args)
    with open(path) as f:
        recs = json.load(f)["records"]
    os.unlink(path)
    return {r["index"]: r["waves_won"] for r in recs}


def paired(binary, mod, games):
    a, b = records(binary, games, None), records(binary, games, mod)
    d = [b[i] - a[i] for i in sorted(a)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    half = 1.959964 * math.sqrt(var / n)
    return mean, half


def main():
    before, after = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    games_log = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    tmp = tempfile.mkdtemp()
    enemy_mod = os.path.join(tmp, "enemy")
    run(after, ["new-mod", enemy_mod])
    with open(os.path.join(enemy_mod, "rosters", "bestiary.toml")) as f:
        name = next(l.split('"')[1] for l in f if l.strip().startswith("name"))
    points = os.path.join(tmp, "points")
    run(after, ["sweep", "--set", 'heroes."Captain Maren".combat=4,5', "--games", "1",
                "--points", points, "--length", "intro"])
    combat_mod = os.path.join(points, "p01")
    print(f"new enemy: {name}; {games} paired sim games, {games_log} logs compared")
    print("| change | build | games identical up to the first use | waves won, changed - base (95% CI) | half-width |")
    print("|---|---|---|---|---|")
    for kind, mod in [("enemy", enemy_mod), ("combat", combat_mod)]:
        for label, binary in [("one stream", before), ("per-purpose streams", after)]:
            share = identical_share(binary, mod, kind, name, games_log)
            mean, half = paired(binary, mod, games)
            what = f"new enemy ({name})" if kind == "enemy" else "Maren's Combat 4 -> 5"
            print(f"| {what} | {label} | {share:.0%} | {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}) | {half:.3f} |")


if __name__ == "__main__":
    main()
