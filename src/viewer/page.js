// The replay viewer's stepping and drawing. The data (one or two arms) is the JSON in #data, written by
// src/viewer/mod.rs: a static table SVG per arm, each model's profile, the state when play began and
// one frame of changes per event that changed anything. Nothing is fetched.
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let armIndex = 0;
let current = 0;
let timer = null;
let selected = null;
// Per arm: the stepping cursor (state after `at`, next frame to apply) and lookups made once.
const arms = D.arms.map((a) => ({
  a,
  cursor: null,
  waveStarts: a.frames.filter((f) => f.c).reduce((acc, f) => {
    const last = acc.length ? acc[acc.length - 1].w : a.start.c[0];
    if (f.c[0] !== last) acc.push({ e: f.e, w: f.c[0] });
    return acc;
  }, []),
  combats: a.events.map((e, i) => (e.kind === "combat" ? i : -1)).filter((i) => i >= 0),
}));

function freshState(a) {
  const models = new Map();
  for (const r of a.start.m) models.set(r[0], r);
  return {
    models,
    buildings: a.start.b.map((b) => b.slice()),
    tokens: a.start.t,
    clock: a.start.c,
    supplies: a.start.s,
  };
}

function applyFrame(s, f) {
  if (f.r) for (const id of f.r) s.models.delete(id);
  if (f.m) for (const r of f.m) s.models.set(r[0], r);
  if (f.b) for (const b of f.b) s.buildings[b[0]] = b.slice(1);
  if (f.t) s.tokens = f.t;
  if (f.c) s.clock = f.c;
  if (f.s !== undefined) s.supplies = f.s;
}

// The state after event n of arm `arm`: forward from the cursor, or afresh when going back.
function stateAt(arm, n) {
  let c = arm.cursor;
  if (!c || n < c.at) c = { at: -1, next: 0, s: freshState(arm.a) };
  const frames = arm.a.frames;
  while (c.next < frames.length && frames[c.next].e <= n) applyFrame(c.s, frames[c.next++]);
  c.at = n;
  arm.cursor = c;
  return c.s;
}

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function html(name, text, cls) {
  const e = document.createElement(name);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function jumpLink(n, label) {
  const a = html("a", label, "jump");
  a.addEventListener("click", () => go(n));
  return a;
}

// The static table of the shown arm, the layer the models are drawn in, and where the table lies in
// the picture (its north-west corner in picture units, and picture units per inch).
let layer = null;
let place = null;
function showTable() {
  const a = arms[armIndex].a;
  $("table").innerHTML = a.svg;
  const svg = $("table").querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // The live layer draws in table inches, y running south from the north edge: it is placed over the
  // picture's table rectangle (the SVG's margins, grid and scale are around it).
  const t = svg.querySelector("rect.table");
  const inch = Number(t.getAttribute("width")) / a.table[0];
  place = { x: Number(t.getAttribute("x")), y: Number(t.getAttribute("y")), inch };
  layer = el("g", { id: "live", transform: `translate(${place.x} ${place.y}) scale(${inch})` });
  svg.appendChild(layer);
  // The close-up: the same table, its viewBox narrowed to the models the event is about.
  const box = $("closeup");
  const old = box.querySelector("svg");
  if (old) old.remove();
  const close = svg.cloneNode(true);
  close.removeAttribute("id");
  close.querySelector("#live").remove();
  close.setAttribute("preserveAspectRatio", "xMidYMid meet");
  box.appendChild(close);
  // The hidden ruler text sizes are measured on (`measure`), in the table's font, not in the close-up.
  ruler = el("text", { x: 0, y: 0, "font-size": RULER, visibility: "hidden", "aria-hidden": "true" });
  svg.appendChild(ruler);
  // The key of short names: each once, by short name.
  const key = new Map();
  for (const p of Object.values(a.profiles)) if (p.short) key.set(p.short, p.name);
  $("shorts").textContent = "Short names: " + [...key].sort((x, y) => x[0].localeCompare(y[0])).map(([k, n]) => `${k} ${n}`).join(" · ");
  $("result").textContent = `${a.name ? a.name + ": " : ""}seed ${a.seed} — ${a.result}`;
  $("slider").max = String(a.events.length - 1);
}

const CONDITION_WORDS = { engaged: "Engaged", defenseless: "Defenseless", transfixed: "Transfixed", entangled: "Entangled" };
const CONDITION_MARKS = { engaged: "E", defenseless: "D", transfixed: "T", entangled: "N" };

function drawTokens(s, h) {
  for (const t of s.tokens) {
    if (t.kind === "barricade" || t.kind === "wall") {
      const l = el("line", {
        x1: t.x, y1: h - t.y, x2: t.x2, y2: h - t.y2,
        stroke: t.kind === "wall" ? "#7d3c98" : "#8b5a2b", "stroke-width": 0.45, "stroke-linecap": "round",
        class: "token", "data-kind": t.kind,
      });
      l.appendChild(el("title", {}, `${t.kind === "wall" ? "Wall" : "Barricade"} ${t.id}: Integrity ${t.integrity}`));
      layer.appendChild(l);
    } else if (t.kind === "trap") {
      const g = el("g", { class: "token", "data-kind": "trap" });
      g.appendChild(el("rect", { x: t.x - 0.35, y: h - t.y - 0.35, width: 0.7, height: 0.7, fill: "#333", transform: `rotate(45 ${t.x} ${h - t.y})` }));
      g.appendChild(el("title", {}, `Trap ${t.id}`));
      layer.appendChild(g);
    } else {
      const g = el("g", { class: "token", "data-kind": "opportunity" });
      g.appendChild(el("circle", { cx: t.x, cy: h - t.y, r: 0.45, fill: "#f3d250", stroke: "#a07d00", "stroke-width": 0.1 }));
      g.appendChild(el("text", { x: t.x, y: h - t.y + 0.22, "font-size": 0.6, "text-anchor": "middle", "font-weight": "bold" }, "?"));
      g.appendChild(el("title", {}, `Opportunity token ${t.id}${t.revealed ? " (revealed)" : ""}`));
      layer.appendChild(g);
    }
  }
}

// Buildings whose state differs from the static picture get a plate with their state now.
function drawBuildings(a, s, h) {
  a.buildings.forEach((b, i) => {
    const now = s.buildings[i];
    const [level, integrity, fire, destroyed] = now;
    const same = JSON.stringify(now) === JSON.stringify(b.start);
    const [x0, y0, x1, y1] = b.rect;
    const g = el("g", { class: "building-state", "data-name": b.name, "data-integrity": integrity, "data-fire": fire, "data-destroyed": destroyed });
    if (!same) {
      g.appendChild(el("rect", {
        x: x0, y: h - y1, width: x1 - x0, height: y1 - y0,
        fill: destroyed ? "#555" : "#b5835a", "fill-opacity": 1, stroke: "#3b2a1a", "stroke-width": 0.15,
      }));
      const cx = (x0 + x1) / 2, cy = h - (y0 + y1) / 2;
      const size = Math.min(0.8, ((x1 - x0) / Math.max(b.name.length, 6)) * 1.6);
      g.appendChild(el("text", { x: cx, y: cy - 0.25, "font-size": size, "text-anchor": "middle", fill: destroyed ? "#fff" : "#000" }, b.name));
      g.appendChild(el("text", { x: cx, y: cy + size, "font-size": size * 0.9, "text-anchor": "middle", fill: destroyed ? "#fff" : "#000" },
        destroyed ? "Destroyed" : `${integrity}/${b.max}${level !== b.start[0] ? " · L" + level : ""}`));
    }
    if (fire) {
      // A flame at the building's north-east corner.
      const fx = x1 - 0.6, fy = h - y1 + 0.7;
      g.appendChild(el("path", {
        d: `M ${fx} ${fy} q -0.55 -0.45 0 -1.2 q 0.1 0.5 0.3 0.45 q 0.05 -0.35 0.05 -0.55 q 0.6 0.6 0.2 1.3 z`,
        fill: "#e8590c", stroke: "#8a2b00", "stroke-width": 0.06, class: "fire",
      }));
    }
    g.appendChild(el("title", {}, `${b.name} (Level ${level}): Integrity ${integrity}/${b.max}${fire ? ", burning" : ""}${destroyed ? ", Destroyed" : ""}`));
    layer.appendChild(g);
  });
}

// Text sizes, measured once per text by the browser on a hidden ruler at a large size (so the font's
// own widths, not a guess): width and height per unit of font size, and the ascent above the baseline.
const metrics = new Map();
let ruler = null;
function measure(text, bold) {
  const key = (bold ? "b" : "n") + text;
  let m = metrics.get(key);
  if (!m) {
    ruler.textContent = text;
    ruler.setAttribute("font-weight", bold ? "bold" : "normal");
    const b = ruler.getBBox();
    m = { w: b.width / RULER, h: b.height / RULER, asc: -b.y / RULER };
    metrics.set(key, m);
  }
  return m;
}
const RULER = 100;

// Boxes are [left, top, right, bottom] in table inches, y running south as drawn.
const boxOverlaps = (p, q, gap) => p[0] < q[2] + gap && q[0] < p[2] + gap && p[1] < q[3] + gap && q[1] < p[3] + gap;
function boxMeetsDisc(b, cx, cy, r) {
  const dx = cx - Math.max(b[0], Math.min(cx, b[2]));
  const dy = cy - Math.max(b[1], Math.min(cy, b[3]));
  return dx * dx + dy * dy < r * r;
}

// A base's label: its short name over its id (or its id alone), one text inside the base. Its size at
// most: the name as the table picture fits it, the id a little smaller.
function innerLabel(p, id, r) {
  const idText = String(id);
  const idm = measure(idText, !p.short);
  if (!p.short) {
    const f = Math.min(r, (1.7 * r) / idm.w);
    return { lines: [{ text: idText, f, bold: true, m: idm }], w: idm.w * f, h: idm.h * f };
  }
  const nm = measure(p.short, true);
  const f1 = Math.min(r * 0.8, (1.7 * r) / Math.max(p.short.length, 2) * 1.6);
  const f2 = Math.min(r * 0.7, (1.7 * r) / Math.max(idText.length, 2) * 1.6);
  return {
    lines: [{ text: p.short, f: f1, bold: true, m: nm }, { text: idText, f: f2, bold: false, m: idm }],
    w: Math.max(nm.w * f1, idm.w * f2),
    h: nm.h * f1 + idm.h * f2,
  };
}

// How much of its full size each base's label keeps so that no two labels of bases in contact meet:
// for each pair whose full-size boxes would meet, the largest common scale at which they are apart
// along one axis, less a margin for how the browser rounds small text to pixels. Taken pairwise (a
// label keeps the smallest scale of its pairs), so labels beside each other in a row keep their size
// and only those of bases touching on a slant shrink — never below what fits inside the base, the
// size at which no two can meet. Bases drawn over each other (models stacked while being placed)
// cannot show both labels and are left out.
const LABEL_MARGIN = 0.9;
function labelScales(items) {
  const scale = new Map();
  for (const it of items) scale.set(it.id, 1);
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const A = items[i], B = items[j];
      const dx = Math.abs(A.x - B.x), dy = Math.abs(A.cy - B.cy);
      if (dx > 4 || dy > 4 || Math.hypot(dx, dy) < 0.9 * (A.r + B.r)) continue;
      const t = Math.max((2 * dx) / (A.label.w + B.label.w), (2 * dy) / (A.label.h + B.label.h)) * LABEL_MARGIN;
      if (t < scale.get(A.id)) scale.set(A.id, t);
      if (t < scale.get(B.id)) scale.set(B.id, t);
    }
  }
  for (const it of items) {
    const inside = (2 * it.r * LABEL_MARGIN) / Math.hypot(it.label.w, it.label.h);
    scale.set(it.id, Math.min(1, Math.max(scale.get(it.id), inside)));
  }
  return scale;
}

// Where a tag of size w × h beside base (x, cy, r) may go: touching the base below, right, above,
// left, then on the four slants; then the same further out, ring by ring (a leader line then joins
// it to its base).
const TAG_GAP = 0.07, RING = 0.35;
function tagSpot(x, cy, r, w, h, ring, k) {
  const d = r + TAG_GAP + ring * RING;
  const s = Math.SQRT1_2;
  const [ux, uy] = [[0, 1], [1, 0], [0, -1], [-1, 0], [1, 1], [-1, 1], [1, -1], [-1, -1]][k];
  const ax = ux && uy ? ux * s * d : ux * d, ay = ux && uy ? uy * s * d : uy * d;
  const cx = x + ax + (ux * w) / 2, cyy = cy + ay + (uy * h) / 2;
  return [cx - w / 2, cyy - h / 2, cx + w / 2, cyy + h / 2];
}

// How far a box is from a base's edge (0 when they meet).
function boxToBase(b, o) {
  const dx = o.x - Math.max(b[0], Math.min(o.x, b[2]));
  const dy = o.cy - Math.max(b[1], Math.min(o.cy, b[3]));
  return Math.max(0, Math.hypot(dx, dy) - o.r);
}

// The first free spot for a tag: one that meets no base, no base's label and no tag placed before, on
// the table (or just off it, where the close-up still shows it), and, touching its base, clearly
// nearer its own base than any other (else it reads as a neighbour's: further out, a leader line
// says whose it is). Failing that within a few inches, the first spot anywhere that meets none of
// them (there is always one further out).
const CLEARLY = 0.15;
function placeTag(it, w, h, bases, taken, bounds) {
  const free = (b, ring, strict) => {
    if (strict && (b[0] < bounds[0] || b[1] < bounds[1] || b[2] > bounds[2] || b[3] > bounds[3])) return false;
    for (const o of bases) if (boxMeetsDisc(b, o.x, o.cy, o.r + 0.05) || boxOverlaps(b, o.box, 0.05)) return false;
    for (const t of taken) if (boxOverlaps(b, t, TAG_GAP)) return false;
    if (strict && ring === 0) {
      const own = boxToBase(b, it);
      for (const o of bases) if (o !== it && Math.abs(o.x - it.x) < 4 && Math.abs(o.cy - it.cy) < 4 && boxToBase(b, o) < own + CLEARLY) return false;
    }
    return true;
  };
  for (let ring = 0; ring < 12; ring++) {
    for (let k = 0; k < 8; k++) {
      const b = tagSpot(it.x, it.cy, it.r, w, h, ring, k);
      if (free(b, ring, true)) return { box: b, ring };
    }
  }
  for (let ring = 0; ring < 10000; ring++) {
    for (let k = 0; k < 8; k++) {
      const b = tagSpot(it.x, it.cy, it.r, w, h, ring, k);
      if (free(b, ring, false)) return { box: b, ring };
    }
  }
  return { box: tagSpot(it.x, it.cy, it.r, w, h, 0, 0), ring: 0 };
}

// A tag's contents: the Wounds in a red ring, then the condition letters; its size from the font.
const TAG_PAD = 0.06, TAG_LETTERS = 0.4, WOUND_R = 0.19, WOUND_FONT = 0.28;
function tagSize(wounds, marks) {
  const lw = marks ? measure(marks, true).w * TAG_LETTERS : 0;
  const ww = wounds > 0 ? 2 * WOUND_R : 0;
  const w = TAG_PAD * 2 + ww + (ww && lw ? 0.06 : 0) + lw;
  const h = TAG_PAD * 2 + Math.max(ww, marks ? measure(marks, true).h * TAG_LETTERS : 0);
  return [w, h];
}

function drawTag(it, box, wounds, marks) {
  const [x0, y0, x1, y1] = box;
  const mid = (y0 + y1) / 2;
  const g = el("g", { class: "tag label", "data-label": "tag", "data-id": it.id });
  g.appendChild(el("rect", {
    x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 0.09, fill: "#fff", "fill-opacity": 0.92,
    stroke: it.side === "heroes" ? "#2f5fc4" : "#b8322a", "stroke-width": 0.035,
  }));
  let at = x0 + TAG_PAD;
  if (wounds > 0) {
    g.appendChild(el("circle", { cx: at + WOUND_R, cy: mid, r: WOUND_R - 0.02, fill: "#fff", stroke: "#b8322a", "stroke-width": 0.05 }));
    const m = measure(String(wounds), true);
    g.appendChild(el("text", {
      x: at + WOUND_R, y: mid - (m.h / 2 - m.asc) * WOUND_FONT, "font-size": WOUND_FONT, "text-anchor": "middle",
      fill: "#b8322a", "font-weight": "bold",
    }, String(wounds)));
    at += 2 * WOUND_R + 0.06;
  }
  if (marks) {
    const m = measure(marks, true);
    g.appendChild(el("text", {
      x: at, y: mid - (m.h / 2 - m.asc) * TAG_LETTERS, "font-size": TAG_LETTERS, fill: "#000", "font-weight": "bold",
    }, marks));
  }
  g.style.cursor = "pointer";
  return g;
}

function drawModels(a, s, h, ev) {
  const marked = new Set([ev.model, ev.target].filter((x) => x !== undefined));
  const ids = [...s.models.keys()].sort((x, y) => x - y);
  // Rings first, under every base: the event's models orange, the selected one yellow.
  for (const id of ids) {
    const [, x, y] = s.models.get(id);
    const r = ((a.profiles[id] || { base: 1 }).base) / 2;
    if (id === selected) layer.appendChild(el("circle", { cx: x, cy: h - y, r: r + 0.3, fill: "#ffe600", class: "ring" }));
    if (marked.has(id)) layer.appendChild(el("circle", { cx: x, cy: h - y, r: r + 0.17, fill: "#ff8c00", class: "ring" }));
  }
  const items = ids.map((id) => {
    const [, x, y, wounds, , conds] = s.models.get(id);
    const p = a.profiles[id] || { name: "model " + id, side: "enemies", base: 1 };
    const r = p.base / 2;
    return { id, x, cy: h - y, r, p, side: p.side, wounds, cl: conds ? conds.split(",") : [], label: innerLabel(p, id, r) };
  });
  const scales = labelScales(items);
  for (const it of items) {
    const { id, x, cy, r, p, wounds, cl } = it;
    const [, , y, , , conds] = s.models.get(id);
    const g = el("g", {
      class: "model", "data-id": id, "data-x": x, "data-y": y, "data-wounds": wounds, "data-conds": conds, "data-side": p.side,
    });
    g.appendChild(el("circle", {
      cx: x, cy, r, fill: p.side === "heroes" ? "#2f5fc4" : "#b8322a",
      stroke: cl.includes("engaged") ? "#111" : "#fff",
      "stroke-width": 0.09,
      "stroke-dasharray": cl.includes("defenseless") ? "0.25 0.15" : "none",
    }));
    // The short name over the id, as the table picture shows them (the legend keys the short names),
    // one text centred on the base at the scale its neighbours leave it.
    const k = scales.get(id);
    const L = it.label;
    const t = el("text", { "text-anchor": "middle", fill: "#fff", class: "label", "data-label": "name" });
    let top = cy - (L.h * k) / 2;
    for (const line of L.lines) {
      const f = line.f * k;
      const span = el("tspan", { x, y: top + line.m.asc * f, "font-size": f, "font-weight": line.bold ? "bold" : "normal" }, line.text);
      t.appendChild(span);
      top += line.m.h * f;
    }
    g.appendChild(t);
    it.box = [x - (L.w * k) / 2, cy - (L.h * k) / 2, x + (L.w * k) / 2, cy + (L.h * k) / 2];
    g.appendChild(el("title", {}, `${p.name} (${id})${wounds ? ", " + wounds + " Wound(s)" : ""}${cl.length ? ", " + cl.map((c) => CONDITION_WORDS[c] || c).join(", ") : ""}`));
    g.style.cursor = "pointer";
    layer.appendChild(g);
  }
  // The tags of Wounds and conditions, above every base, each in the first free spot around its base
  // (models in id order, so the same table always gets the same tags).
  const leaders = el("g", { class: "leaders" });
  const tags = el("g", { class: "tags" });
  layer.appendChild(leaders);
  layer.appendChild(tags);
  const bounds = [-0.9, -0.9, a.table[0] + 0.9, h + 0.9];
  const taken = [];
  for (const it of items) {
    const marks = it.cl.map((c) => CONDITION_MARKS[c] || c[0].toUpperCase()).join("");
    if (!marks && !(it.wounds > 0)) continue;
    const [w, th] = tagSize(it.wounds, marks);
    const spot = placeTag(it, w, th, items, taken, bounds);
    taken.push(spot.box);
    if (spot.ring > 0) {
      // A tag set away from its base: a line from the base's edge to the tag's nearest point.
      const b = spot.box;
      const nx = Math.max(b[0], Math.min(it.x, b[2])), ny = Math.max(b[1], Math.min(it.cy, b[3]));
      const d = Math.hypot(nx - it.x, ny - it.cy) || 1;
      leaders.appendChild(el("line", {
        x1: it.x + ((nx - it.x) / d) * it.r, y1: it.cy + ((ny - it.cy) / d) * it.r, x2: nx, y2: ny,
        stroke: "#333", "stroke-width": 0.04, class: "leader", "data-id": it.id,
      }));
    }
    tags.appendChild(drawTag(it, spot.box, it.wounds, marks));
  }
  return ids.length;
}

function detailTable(d) {
  const t = html("table");
  const row = (k, v) => { const tr = html("tr"); tr.appendChild(html("th", k)); tr.appendChild(html("td", v)); t.appendChild(tr); };
  if (d.attacker_die !== undefined) {
    row("Attacker", `die ${d.attacker_die}, total ${d.attacker_total}`);
    row("Defender", `die ${d.defender_die}, total ${d.defender_total}`);
    row("Result", `${d.result}${d.winner ? " (" + d.winner + " wins)" : ""}${d.lethal ? "; lethal: " + d.lethal : ""}`);
  }
  if (d.trap_die !== undefined) row("Trap / model", `${d.trap_die} (total ${d.trap_total}) vs ${d.model_die} (total ${d.model_total}): ${d.result}`);
  if (d.dice) row("Dice", d.dice.join(" "));
  if (d.faces) row("New faces", d.faces.join(" "));
  if (d.roll !== undefined) row("Roll", String(d.roll));
  for (const m of d.modifiers || []) row("Modifier", `${m.value >= 0 ? "+" : ""}${m.value} ${m.reason} (${m.to}; ${m.source})`);
  return t;
}

// The tracks in play after event n (clocks, the threat track), as ", threat 7": each track's space
// after the last event that set or moved it.
function tracksAt(a, n) {
  const at = new Map();
  for (let i = 0; i <= n && i < a.events.length; i++) {
    const t = a.events[i].track;
    if (t) at.set(t[0], t[1]);
  }
  let out = "";
  for (const [name, value] of at) out += `, ${name} ${value}`;
  return out;
}

// A battle's Victory Points and objectives' holders after event n, as "; VP heroes 2, enemies 1;
// the bridge: heroes" (nothing for the rulebook's game).
function battleAt(a, n) {
  const vp = { heroes: 0, enemies: 0 };
  const held = new Map();
  let battle = false;
  for (let i = 0; i <= n && i < a.events.length; i++) {
    const e = a.events[i];
    if (e.vp) {
      vp[e.vp[0]] = e.vp[1];
      battle = true;
    }
    if (e.held) {
      held.set(e.held[0], e.held[1] || "nobody");
      battle = true;
    }
  }
  if (!battle && a.round_limit == null) return "";
  let out = `; VP heroes ${vp.heroes}, enemies ${vp.enemies}`;
  for (const [name, who] of held) out += `; ${name}: ${who}`;
  return out;
}

function showEvent(a, s, n) {
  const ev = a.events[n];
  const box = $("event");
  box.innerHTML = "";
  box.appendChild(html("h2", `Event #${n} of ${a.events.length - 1} — wave ${s.clock[0]}, round ${s.clock[1]}${a.round_limit == null ? "" : ` of ${a.round_limit}`}, Supplies ${s.supplies}${tracksAt(a, n)}${battleAt(a, n)}`));
  box.appendChild(html("p", ev.text, "text"));
  if (ev.detail) box.appendChild(detailTable(ev.detail));
  // Why: the scripts' decisions that led to this event (a Behaviour's target and action, the hero
  // policy's order), with what they weighed, their reason and their script's line.
  const why = (a.decisions || []).filter((d) => d.at <= n && (d.until === null || d.until === undefined || n < d.until));
  if (why.length) {
    const div = html("div", "", "why");
    div.appendChild(html("h3", "Why"));
    for (const d of why) {
      const p = html("p", d.text, "decision");
      if (d.at !== n) { p.appendChild(document.createTextNode(" — from ")); p.appendChild(jumpLink(d.at, `#${d.at}`)); }
      div.appendChild(p);
    }
    box.appendChild(div);
  }
  if (ev.cause !== undefined) {
    const p = html("p", "Caused by: ");
    p.appendChild(jumpLink(ev.cause, a.events[ev.cause].text));
    box.appendChild(p);
  }
  if (ev.led) {
    box.appendChild(html("p", "Led to:"));
    const ul = html("ul");
    for (const i of ev.led.slice(0, 30)) { const li = html("li"); li.appendChild(jumpLink(i, a.events[i].text)); ul.appendChild(li); }
    box.appendChild(ul);
  }
  if (arms.length > 1) {
    const other = arms[1 - armIndex].a;
    const o = other.events[n];
    const p = html("p", `${other.name} at #${n}: ${o ? o.text : "(its log has ended)"}`, o && o.text === ev.text ? "" : "differs");
    box.appendChild(p);
  }
}

function showModel(a, s) {
  const box = $("model");
  if (selected === null) return;
  box.innerHTML = "";
  const p = a.profiles[selected];
  const row = s.models.get(selected);
  box.appendChild(html("h2", `${p ? p.name : "model"} (${selected})`));
  if (!row) { box.appendChild(html("p", "Not on the table at this event.", "hint")); return; }
  const [, x, y, wounds, quality, conds] = row;
  const dl = html("dl");
  const item = (k, v) => { dl.appendChild(html("dt", k)); dl.appendChild(html("dd", v)); };
  item("Side", p.side === "heroes" ? "heroes' side" : "enemies");
  item("Quality", `${quality}+ (profile ${p.quality}+)`);
  item("Combat", (p.combat >= 0 ? "+" : "") + p.combat);
  item("Wounds", String(wounds));
  item("Conditions", conds ? conds.split(",").map((c) => CONDITION_WORDS[c] || c).join(", ") : "none");
  item("Traits", p.traits.length ? p.traits.join(", ") : "none");
  if (p.weapon) item("Weapon", p.weapon);
  if (p.spells.length) item("Spells", p.spells.join(", "));
  if (p.items.length) item("Items", p.items.join(", "));
  if (p.behaviour) item("Behaviour", p.behaviour);
  if (p.group !== null && p.group !== undefined) item("Group", String(p.group));
  item("Position", `(${x.toFixed(1)}, ${y.toFixed(1)}), base ${p.base}"`);
  box.appendChild(dl);
  // The profile's card as `village show` prints it: each trait's rule text, the signature or Alpha
  // Rule with its params and script, Wave Points, and where each part comes from.
  if (p.card) {
    const d = html("details", "", "card");
    d.open = true;
    d.appendChild(html("summary", "Profile card (village show)"));
    d.appendChild(html("pre", p.card));
    box.appendChild(d);
  }
}

// The close-up's window: centred on the model last clicked, until the page steps to another event;
// else around the event's models (else the selected one, else where it last was), kept on the table.
let focus = null;
let centreOn = null;
const CLOSE_W = 10, CLOSE_H = 6.6;
function showCloseup(a, s, ev) {
  const close = $("closeup").querySelector("svg");
  const h = a.table[1];
  let x, y;
  if (centreOn !== null && s.models.has(centreOn)) {
    const [, mx, my] = s.models.get(centreOn);
    focus = [mx, my];
    // Exactly on the model, even by the table's edge: what was clicked is what the close-up is about.
    x = mx - CLOSE_W / 2;
    y = h - my - CLOSE_H / 2;
  } else {
    const ids = [ev.model, ev.target, selected].filter((x) => x !== undefined && x !== null && s.models.has(x));
    const near = ids.slice(0, ids.length > 2 ? 2 : ids.length).map((id) => s.models.get(id));
    if (near.length) {
      focus = [near.reduce((t, r) => t + r[1], 0) / near.length, near.reduce((t, r) => t + r[2], 0) / near.length];
    }
    if (!focus) focus = [a.table[0] / 2, h / 2];
    x = Math.max(-1, Math.min(a.table[0] + 1 - CLOSE_W, focus[0] - CLOSE_W / 2));
    y = Math.max(-1, Math.min(h + 1 - CLOSE_H, h - focus[1] - CLOSE_H / 2));
  }
  const i = place.inch;
  close.setAttribute("viewBox", `${place.x + x * i} ${place.y + y * i} ${CLOSE_W * i} ${CLOSE_H * i}`);
  const live = close.querySelector("g.closeup-live");
  if (live) live.remove();
  const copy = layer.cloneNode(true);
  copy.removeAttribute("id");
  copy.setAttribute("class", "closeup-live");
  // Copies are not the drawn models: their class says so (tests and tools read g.model).
  for (const m of copy.querySelectorAll("g.model")) m.setAttribute("class", "closeup-model");
  close.appendChild(copy);
  $("closeup-where").textContent = `(${CLOSE_W}" × ${CLOSE_H}" around (${focus[0].toFixed(0)}, ${focus[1].toFixed(0)}))`;
}

// Where each drawn model is seen, measured from the page's layout (the centre of its base on screen,
// against the table rectangle on screen) and written in table inches as data-seen-x/-y: what the
// browser test compares with the log, so a model drawn in the wrong place fails it.
function markSeen(a) {
  const t = $("table").querySelector("svg rect.table").getBoundingClientRect();
  for (const g of layer.querySelectorAll("g.model")) {
    const b = g.querySelector("circle").getBoundingClientRect();
    const x = ((b.left + b.width / 2 - t.left) / t.width) * a.table[0];
    const y = a.table[1] - ((b.top + b.height / 2 - t.top) / t.height) * a.table[1];
    g.dataset.seenX = x.toFixed(3);
    g.dataset.seenY = y.toFixed(3);
  }
}

// Where the close-up is centred and where each model stands in it, measured from the layout in
// screen pixels (data-closeup-centre on <body>, data-seen-px on each close-up model): the browser test
// checks that a click centres the close-up on the model clicked.
function markSeenCloseup() {
  const close = $("closeup").querySelector("svg");
  const px = (b) => `${(b.left + b.width / 2).toFixed(2)},${(b.top + b.height / 2).toFixed(2)}`;
  document.body.dataset.closeupCentre = px(close.getBoundingClientRect());
  for (const g of close.querySelectorAll("g.closeup-model")) g.dataset.seenPx = px(g.querySelector("circle").getBoundingClientRect());
}

// `#check=labels`: the box each label (class `label`: a short name, an id, a tag of Wounds and
// conditions) is drawn in on screen, on the table and in the close-up (the labels it shows), written
// on <body> as data-labels-table and data-labels-closeup, "model:kind:left,top,right,bottom;…" in
// pixels. The browser test checks that no two of them intersect.
let checkLabels = false;
function measureLabels() {
  const list = (root, clip) => {
    const out = [];
    for (const e of root.querySelectorAll(".label")) {
      const b = e.getBoundingClientRect();
      if (clip && (b.right <= clip.left || b.left >= clip.right || b.bottom <= clip.top || b.top >= clip.bottom)) continue;
      const m = e.closest("[data-id]");
      out.push(`${m ? m.dataset.id : "?"}:${e.dataset.label}:${[b.left, b.top, b.right, b.bottom].map((v) => v.toFixed(2)).join(",")}`);
    }
    return out.join(";");
  };
  document.body.dataset.labelsTable = list(layer, null);
  const close = $("closeup").querySelector("svg");
  document.body.dataset.labelsCloseup = list(close.querySelector("g.closeup-live"), close.getBoundingClientRect());
}

function render() {
  const arm = arms[armIndex];
  const a = arm.a;
  const n = current;
  const s = stateAt(arm, n);
  const h = a.table[1];
  const ev = a.events[n];
  if (ev.kind === "combat" && ev.detail && ev.detail.target && ev.detail.target.model !== undefined) ev.target = ev.detail.target.model;
  layer.replaceChildren();
  drawTokens(s, h);
  drawBuildings(a, s, h);
  const count = drawModels(a, s, h, ev);
  markSeen(a);
  showCloseup(a, s, ev);
  markSeenCloseup();
  if (checkLabels) measureLabels();
  showEvent(a, s, n);
  showModel(a, s);
  $("slider").value = String(n);
  $("where").textContent = `#${n} / ${a.events.length - 1}: ${ev.kind}`;
  document.body.dataset.event = String(n);
  document.body.dataset.arm = String(armIndex);
  document.body.dataset.models = String(count);
  document.body.dataset.wave = String(s.clock[0]);
  document.body.dataset.selected = selected === null ? "" : String(selected);
  try {
    history.replaceState(null, "", `#event=${n}${arms.length > 1 ? "&arm=" + armIndex : ""}`);
  } catch (_) {
    // Some browsers refuse history changes on file: pages; the page works without.
  }
}

function go(n) {
  const last = arms[armIndex].a.events.length - 1;
  const next = Math.max(0, Math.min(last, n));
  // Another event: the close-up follows the event's models again.
  if (next !== current) centreOn = null;
  current = next;
  render();
}

function nextOf(list, key) {
  const hit = list.find((x) => key(x) > current);
  return hit === undefined ? null : key(hit);
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ Play"; return; }
  $("play").textContent = "❚❚ Pause";
  timer = setInterval(() => {
    if (current >= arms[armIndex].a.events.length - 1) { togglePlay(); return; }
    go(current + 1);
  }, 250);
}

function setArm(i) {
  armIndex = i;
  showTable();
  for (const r of document.querySelectorAll("#arms input")) r.checked = Number(r.value) === i;
  go(current);
  search();
}

function search() {
  const q = $("query").value.trim().toLowerCase();
  const list = $("hits");
  list.innerHTML = "";
  if (!q) return [];
  const a = arms[armIndex].a;
  const hits = [];
  a.events.forEach((e, i) => { if (e.text.toLowerCase().includes(q)) hits.push(i); });
  for (const i of hits.slice(0, 200)) {
    const li = html("li");
    li.appendChild(jumpLink(i, a.events[i].text));
    list.appendChild(li);
  }
  if (hits.length > 200) list.appendChild(html("li", `… ${hits.length - 200} more`));
  return hits;
}

function setup() {
  if (arms.length > 1) {
    D.arms.forEach((a, i) => {
      const l = html("label");
      const r = document.createElement("input");
      r.type = "radio"; r.name = "arm"; r.value = String(i);
      r.addEventListener("change", () => setArm(i));
      l.appendChild(r);
      l.appendChild(document.createTextNode(" " + a.name));
      $("arms").appendChild(l);
    });
    const fd = D.first_difference;
    const b = $("diff");
    b.hidden = false;
    if (fd === null) { b.disabled = true; b.textContent = "No difference"; } else b.textContent = `First difference (#${fd})`;
  }
  $("prev").addEventListener("click", () => go(current - 1));
  $("next").addEventListener("click", () => go(current + 1));
  $("play").addEventListener("click", togglePlay);
  $("wave").addEventListener("click", () => { const n = nextOf(arms[armIndex].waveStarts, (w) => w.e); if (n !== null) go(n); });
  $("combat").addEventListener("click", () => { const n = nextOf(arms[armIndex].combats, (c) => c); if (n !== null) go(n); });
  $("diff").addEventListener("click", () => { if (D.first_difference !== null) go(D.first_difference); });
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("query").addEventListener("input", search);
  $("query").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const hits = search();
      const n = hits.find((i) => i > current);
      if (n !== undefined) go(n); else if (hits.length) go(hits[0]);
    } else if (e.key === "Escape") $("query").blur();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target === $("query")) return;
    const k = e.key;
    if (k === "ArrowRight") go(current + 1);
    else if (k === "ArrowLeft") go(current - 1);
    else if (k === " ") togglePlay();
    else if (k === "w") $("wave").click();
    else if (k === "c") $("combat").click();
    else if (k === "d") $("diff").click();
    else if (k === "a" && arms.length > 1) setArm(1 - armIndex);
    else if (k === "Home") go(0);
    else if (k === "End") go(1e9);
    else if (k === "/") $("query").focus();
    else return;
    e.preventDefault();
  });
  // A click on a model (its base or its tag), on the table or in the close-up, shows its profile and
  // centres the close-up on it.
  for (const box of [$("table"), $("closeup")]) {
    box.addEventListener("click", (e) => {
      const m = e.target.closest("[data-id]");
      if (m) {
        selected = Number(m.dataset.id);
        centreOn = selected;
        render();
      }
    });
  }
  window.addEventListener("hashchange", fromHash);
  showTable();
  drawDiffMark();
  fromHash();
}

function drawDiffMark() {
  const fd = D.first_difference;
  if (fd === null || fd === undefined) return;
  const span = html("span");
  const last = Math.max(1, ...D.arms.map((a) => a.events.length - 1));
  span.style.left = `${(100 * fd) / last}%`;
  span.title = `first difference: event #${fd}`;
  $("marks").appendChild(span);
}

// `#event=N`, `&arm=I`, `#diff` (the first difference) and `#model=ID` (selected): what a link or a test opens.
// Then, as a person would do it: `&keys=c,ArrowRight,…` presses those keys, `&search=TEXT` types TEXT in
// the search box and presses Enter, `&click=ID` clicks model ID on the table, then `&closeup-click=ID`
// model ID in the close-up (the browser test drives the page's own handlers this way). `&check=labels`
// measures the labels' boxes (`measureLabels`).
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  checkLabels = p.get("check") === "labels";
  const arm = Number(p.get("arm"));
  if (arms.length > 1 && (arm === 0 || arm === 1) && arm !== armIndex) { armIndex = arm; showTable(); }
  for (const r of document.querySelectorAll("#arms input")) r.checked = Number(r.value) === armIndex;
  if (p.has("model")) selected = Number(p.get("model"));
  if (p.has("diff") && D.first_difference !== null) go(D.first_difference);
  else go(p.has("event") ? Number(p.get("event")) : 0);
  if (p.has("search")) {
    const q = $("query");
    q.focus();
    q.value = p.get("search");
    q.dispatchEvent(new Event("input", { bubbles: true }));
    q.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    q.blur();
  }
  for (const k of (p.get("keys") || "").split(",").filter((k) => k)) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: k === "Space" ? " " : k, bubbles: true }));
  }
  if (p.has("click")) {
    const m = layer.querySelector(`g.model[data-id="${Number(p.get("click"))}"] circle`);
    if (m) m.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
  if (p.has("closeup-click")) {
    const m = $("closeup").querySelector(`g.closeup-model[data-id="${Number(p.get("closeup-click"))}"] circle`);
    if (m) m.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
}

setup();
