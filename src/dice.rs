//! Dice: the seeded D6 streams of a game (one for each purpose, [`Stream`]), the forced-result queue,
//! and the rolls the rules use.
//!
//! Owns: the portable generator (ChaCha8, seeded from the game seed), turning its output into D6 faces
//! by rejection sampling (so the faces never change with a `rand` release), the queue of forced faces
//! consumed before the stream, and the pure evaluation of activation, Quality, morale and opposed rolls.
//! Evaluation is separate from rolling so exact odds are computed by enumerating the same functions the
//! game uses. It never logs: the caller turns each roll into an event.
//!
//! A playout's dice ([`Dice::keyed`]) draw each roll from a position named by what the roll is for
//! ([`Dice::at`]) instead of from one running stream, so two playouts that spend dice differently early
//! (a shot against a move) still roll the same later dice for the same model's same roll: common random
//! numbers that survive a difference in dice used.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use thiserror::Error;

/// Faces of a six-sided die.
pub const SIDES: u8 = 6;

/// A die face that cannot be rolled, or a roll of a number of dice the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// A forced result outside 1–6.
    #[error("a forced die must be 1 to 6, got {0}")]
    BadFace(i64),
    /// Activation uses one, two or three dice (§3.1): the count given, and the most allowed.
    #[error("an activation rolls 1 to {1} dice, got {0}")]
    BadDiceCount(u8, u8),
}

/// One die as rolled: its face and whether it came from the forced queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    /// The natural face, 1–6.
    pub face: u8,
    /// True when the face was taken from the forced queue rather than the seeded stream.
    pub forced: bool,
}

/// What a roll is for, as far as the dice care: each purpose of a game draws from a stream of its own
/// ([`Dice::per_purpose`]), so a change to one part of the game (another enemy in the pool, a hero's
/// Combat) leaves the other parts' rolls alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Building a wave: its Groups' sizes, profiles, Behaviours and edges.
    Wave = 0,
    /// Where Groups deploy.
    Deploy = 1,
    /// Opportunities: where they are placed and what a claim finds.
    Opportunity = 2,
    /// The heroes' side's activation dice (and rerolls).
    HeroActivation = 3,
    /// The Enemy Groups' activation dice (and rerolls).
    EnemyActivation = 4,
    /// Combat and everything else: melee, shooting, structural attacks, morale, spells, traps,
    /// tie-breakers and the scripts' own rolls.
    Combat = 5,
}

/// How many streams a game's dice keep.
const STREAMS: usize = 6;

impl Stream {
    /// The stream of a roll or choice named `purpose`, made for a model of `side` (`None`: no model,
    /// or one not on the table).
    pub fn of(purpose: &str, side: Option<crate::state::Side>) -> Stream {
        use crate::state::Side;
        if purpose.starts_with("group ") || purpose.starts_with("wave ") {
            Stream::Wave
        } else if purpose.starts_with("deploy") {
            Stream::Deploy
        } else if purpose.starts_with("opportunity") {
            Stream::Opportunity
        } else if purpose == "activation" || purpose == "reroll" {
            match side {
                Some(Side::Enemies) => Stream::EnemyActivation,
                _ => Stream::HeroActivation,
            }
        } else {
            Stream::Combat
        }
    }
}

/// The game's dice: ChaCha8 streams plus a queue of forced faces consumed first.
///
/// Serialisable, so a saved game resumes at exactly the same point of every stream.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Dice {
    /// The one stream of [`Dice::new`] (a game saved before the streams were split draws from it).
    rng: ChaCha8Rng,
    /// [`Dice::per_purpose`]'s stream for each [`Stream`] (empty: everything draws from `rng`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    streams: Vec<ChaCha8Rng>,
    /// The stream the next draws come from (set by [`Dice::select`]).
    #[serde(default)]
    current: usize,
    forced: VecDeque<u8>,
    rolled: u64,
    /// A playout's keyed draws (never saved: a saved game's dice are its stream).
    #[serde(skip)]
    keyed: Option<Box<Keyed>>,
}

/// The state of keyed dice: the playout's seed, the SplitMix64 position the draws come from, and how
/// often each key has been asked for (the n-th roll of a key is a position of its own).
#[derive(Debug, Clone)]
struct Keyed {
    base: u64,
    state: u64,
    counts: HashMap<u64, u64>,
}

/// SplitMix64's increment (the golden ratio): successive draws of keyed dice step by it.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: mixes every bit of `z` into every bit of the result. Seeds made of other
/// seeds (a run's games, a playout's samples) pass through it so that neighbouring inputs give unrelated
/// streams.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Dice {
    /// A new stream for `seed`. Two streams with the same seed give the same faces forever.
    pub fn new(seed: u64) -> Self {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            streams: Vec::new(),
            current: 0,
            forced: VecDeque::new(),
            rolled: 0,
            keyed: None,
        }
    }

    /// A game's dice for `seed`: a stream for each [`Stream`], each seeded from the game's seed and
    /// the stream's number, so each purpose's rolls depend on the seed and on that purpose's own
    /// draws alone. Draws come from the stream [`Dice::select`] last chose (combat until then).
    pub fn per_purpose(seed: u64) -> Self {
        let mut d = Dice::new(seed);
        d.streams = (0..STREAMS as u64)
            .map(|i| ChaCha8Rng::seed_from_u64(mix64(seed ^ mix64(i.wrapping_add(1)))))
            .collect();
        d.current = Stream::Combat as usize;
        d
    }

    /// Draw what follows from `stream` (dice of one stream ignore it).
    pub fn select(&mut self, stream: Stream) {
        self.current = stream as usize;
    }

    /// The stream draws come from now.
    fn stream(&mut self) -> &mut ChaCha8Rng {
        let i = self.current;
        match self.streams.get_mut(i) {
            Some(r) => r,
            None => &mut self.rng,
        }
    }

    /// Keyed dice for a playout from `seed`: until the first [`Dice::at`] they draw from the seed's own
    /// position; after it, from the position of the key named. Same seed and same keys, same faces.
    pub fn keyed(seed: u64) -> Self {
        let mut d = Dice::new(seed);
        d.keyed = Some(Box::new(Keyed {
            base: seed,
            state: mix64(seed),
            counts: HashMap::new(),
        }));
        d
    }

    /// Whether these are keyed dice ([`Dice::keyed`]).
    pub fn is_keyed(&self) -> bool {
        self.keyed.is_some()
    }

    /// Keyed dice: draw what follows from the position of `key` (its n-th use a position of its own).
    /// A stream's dice ignore it.
    pub fn at(&mut self, key: u64) {
        if let Some(k) = &mut self.keyed {
            let n = k.counts.entry(key).or_insert(0);
            k.state = mix64(k.base ^ mix64(key.wrapping_add(n.wrapping_mul(GOLDEN))));
            *n += 1;
        }
    }

    /// Keyed dice: draw the next roll at the position of the roll named by its wave, round, purpose
    /// and model (`None`: no model). A stream's dice ignore it, and the key is not even computed.
    pub fn at_roll(&mut self, wave: u32, round: u32, purpose: &str, model: Option<u32>) {
        if self.keyed.is_none() {
            return;
        }
        // FNV-1a over the purpose, then the wave, round and model folded in.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in purpose.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let m = model.map_or(u64::MAX, u64::from);
        let key = mix64(h ^ mix64((u64::from(wave) << 48) ^ (u64::from(round) << 32) ^ m));
        self.at(key);
    }

    // The stream's draws are exactly ChaCha8's (`next_u32` is not half of `next_u64` there): a game's
    // faces never change; keyed dice take the high half of a SplitMix64 draw.
    fn next_u32(&mut self) -> u32 {
        match self.keyed {
            Some(_) => (self.next_u64() >> 32) as u32,
            None => self.stream().next_u32(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        match &mut self.keyed {
            Some(k) => {
                k.state = k.state.wrapping_add(GOLDEN);
                mix64(k.state)
            }
            None => self.stream().next_u64(),
        }
    }

    /// Queue faces to be returned, in order, before the seeded stream is used again.
    /// Rejects the whole list (queueing nothing) if any face is outside 1–6.
    pub fn force<I: IntoIterator<Item = i64>>(&mut self, faces: I) -> Result<(), DiceError> {
        let faces: Vec<i64> = faces.into_iter().collect();
        if let Some(bad) = faces.iter().find(|f| !(1..=6).contains(*f)) {
            return Err(DiceError::BadFace(*bad));
        }
        self.forced.extend(faces.into_iter().map(|f| f as u8));
        Ok(())
    }

    /// Forced faces still waiting to be used.
    pub fn pending_forced(&self) -> Vec<u8> {
        self.forced.iter().copied().collect()
    }

    /// Drop every forced face not yet used.
    pub fn clear_forced(&mut self) {
        self.forced.clear();
    }

    /// How many dice this stream has produced (forced ones included).
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// How far the seeded stream has been drawn (forced faces do not move it): equal positions before
    /// and after a resolution mean it drew nothing from the stream, neither a die nor a uniform choice.
    /// `village odds` checks it to know that every face it forced was every chance the kernel took.
    pub fn stream_position(&self) -> u128 {
        self.streams
            .iter()
            .chain(std::iter::once(&self.rng))
            .map(ChaCha8Rng::get_word_pos)
            .sum()
    }

    /// Roll one D6.
    pub fn d6(&mut self) -> Die {
        self.rolled += 1;
        if let Some(face) = self.forced.pop_front() {
            return Die { face, forced: true };
        }
        Die {
            face: self.stream_d6(),
            forced: false,
        }
    }

    /// Roll `n` D6.
    pub fn roll(&mut self, n: usize) -> Vec<Die> {
        (0..n).map(|_| self.d6()).collect()
    }

    /// A uniform integer in `0..n` from the seeded stream (never the forced queue), for choices the
    /// rules leave to chance but that are not die rolls (e.g. picking among eligible profiles).
    /// `0..0` has no values: `below(0)` is 0 and draws nothing (no caller asks; none may panic).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        // Rejection sampling on u32: portable and unbiased.
        let zone = u32::MAX - (u32::MAX % n) - 1;
        loop {
            let v = self.next_u32();
            if v <= zone {
                return v % n;
            }
        }
    }

    /// One of `options` picked uniformly with one 64-bit draw, by rendezvous hashing: each option's
    /// name is hashed with the draw and the highest wins. A choice among more options (another enemy
    /// in a mod's pool) then picks what it picked before unless the new option wins, and every choice
    /// draws the same, so the stream after it is the same whatever the options. `None` for no options.
    pub fn pick<S: AsRef<str>>(&mut self, options: &[S]) -> Option<usize> {
        if options.is_empty() {
            return None;
        }
        let r = self.next_u64();
        let score = |o: &S| {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in o.as_ref().bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            mix64(r ^ mix64(h))
        };
        let mut best = 0;
        let mut top = score(&options[0]);
        for (i, o) in options.iter().enumerate().skip(1) {
            let v = score(o);
            if v > top {
                (best, top) = (i, v);
            }
        }
        Some(best)
    }

    /// [`Dice::below`] for a 64-bit `n`, drawing 64 bits at a time; `below_u64(0)` is 0 and draws
    /// nothing.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let zone = u64::MAX - (u64::MAX % n) - 1;
        loop {
            let v = self.next_u64();
            if v <= zone {
                return v % n;
            }
        }
    }

    /// A uniform integer of `lo..=hi`, any interval of `i64` (Lua's `math.random(lo, hi)`), or `None`
    /// when it is empty (`lo > hi`). An interval of at most 2^32 - 1 integers draws as
    /// [`Dice::below`] draws (what scripts have always drawn for dice-sized ranges); a wider one
    /// draws 64 bits, and the whole of `i64` is one draw of 64 bits as it comes.
    pub fn in_range(&mut self, lo: i64, hi: i64) -> Option<i64> {
        if lo > hi {
            return None;
        }
        // How far `hi` is above `lo`, 0..=u64::MAX: the difference of two i64 always fits a u64.
        let top = hi.wrapping_sub(lo) as u64;
        let offset = match top {
            t if t < u64::from(u32::MAX) => u64::from(self.below(t as u32 + 1)),
            u64::MAX => self.next_u64(),
            t => self.below_u64(t + 1),
        };
        Some(lo.wrapping_add(offset as i64))
    }

    fn stream_d6(&mut self) -> u8 {
        self.below(u32::from(SIDES)) as u8 + 1
    }

    /// Roll an activation (§3.1) and evaluate it. `automatic` of the `dice` chosen are successes that
    /// are not rolled (the Hero trait, SUPPLEMENT §4): only the rest are dice.
    pub fn activation(
        &mut self,
        quality: u8,
        dice: u8,
        automatic: u8,
        rules: &RollRules,
    ) -> Result<ActivationRoll, DiceError> {
        rules.check_dice_count(dice)?;
        let rolled = self.roll(usize::from(dice.saturating_sub(automatic)));
        let faces: Vec<u8> = rolled.iter().map(|d| d.face).collect();
        Ok(ActivationRoll::evaluate(
            &faces,
            quality,
            dice.min(automatic),
            rules,
        ))
    }

    /// A one-die Quality check. A model with the Hero trait passes without rolling (§3.1).
    pub fn quality_check(&mut self, quality: u8, hero: bool, rules: &RollRules) -> QualityCheck {
        if hero {
            return QualityCheck {
                face: None,
                passed: true,
            };
        }
        let face = self.d6().face;
        QualityCheck {
            face: Some(face),
            passed: rules.succeeds(face, quality, 0),
        }
    }

    /// An opposed combat roll: the attacker's die first, then the defender's (or the building's).
    pub fn opposed(&mut self) -> (u8, u8) {
        let a = self.d6().face;
        let d = self.d6().face;
        (a, d)
    }
}

/// How Quality dice are rolled and read (core §3.1; rosters/rules.toml `[activation]`): the natural
/// face that always fails, the one that always succeeds, the failures that make a turnover, and the
/// most activation dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRules {
    pub natural_fail: u8,
    pub natural_success: u8,
    pub turnover_failures: u8,
    pub max_dice: u8,
}

impl RollRules {
    /// The rulebook's numbers: a natural 1 always fails, a natural 6 always succeeds, two failures are a
    /// turnover, up to three dice (what `rosters/rules.toml` holds).
    pub const RULEBOOK: RollRules = RollRules {
        natural_fail: 1,
        natural_success: 6,
        turnover_failures: 2,
        max_dice: 3,
    };

    /// An activation rolls 1 to `max_dice` dice.
    pub fn check_dice_count(&self, dice: u8) -> Result<(), DiceError> {
        if dice == 0 || dice > self.max_dice {
            return Err(DiceError::BadDiceCount(dice, self.max_dice));
        }
        Ok(())
    }

    /// Whether a die succeeds against Quality: the natural fail always fails, the natural success
    /// always succeeds, otherwise the face plus `modifier` must equal or exceed Quality.
    pub fn succeeds(&self, face: u8, quality: u8, modifier: i8) -> bool {
        if face == self.natural_fail {
            false
        } else if face == self.natural_success {
            true
        } else {
            i16::from(face) + i16::from(modifier) >= i16::from(quality)
        }
    }
}

/// An evaluated activation roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationRoll {
    /// The natural faces rolled, in order. A Hero's automatic success is not a die and is not here.
    pub dice: Vec<u8>,
    /// Successes that are not dice: the Hero trait's one (SUPPLEMENT §4), never rerolled, never a
    /// failure.
    pub automatic: u8,
    /// Actions gained: the rolled dice that succeeded plus the automatic successes.
    pub successes: u8,
    /// Rolled dice that failed.
    pub failures: u8,
    /// As many failures among the rolled dice as make a turnover (two): the side's turn ends after
    /// this model's actions.
    pub turnover: bool,
}

impl ActivationRoll {
    /// Evaluate rolled faces against Quality, with `automatic` successes that were not rolled.
    pub fn evaluate(faces: &[u8], quality: u8, automatic: u8, rules: &RollRules) -> Self {
        let rolled_successes = faces
            .iter()
            .filter(|&&f| rules.succeeds(f, quality, 0))
            .count() as u8;
        // Saturating: an activation rolls at most `max_dice` (a u8), but `faces` is any slice.
        let failures = u8::try_from(faces.len())
            .unwrap_or(u8::MAX)
            .saturating_sub(rolled_successes);
        ActivationRoll {
            dice: faces.to_vec(),
            automatic,
            successes: rolled_successes.saturating_add(automatic),
            failures,
            turnover: failures >= rules.turnover_failures,
        }
    }
}

/// The result of a one-die Quality check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualityCheck {
    /// The face rolled; `None` when the Hero trait passed it without a roll.
    pub face: Option<u8>,
    /// Whether the check passed.
    pub passed: bool,
}

/// An evaluated morale check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoraleRoll {
    /// The three natural faces.
    pub dice: Vec<u8>,
    /// 0 = steady, 1 = one band toward the edge, 2 = two bands, 3 = Flees.
    pub failures: u8,
}

impl MoraleRoll {
    /// Evaluate three faces against Quality with `modifier` on each die.
    pub fn evaluate(faces: &[u8], quality: u8, modifier: i8, rules: &RollRules) -> Self {
        let failures = faces
            .iter()
            .filter(|&&f| !rules.succeeds(f, quality, modifier))
            .count() as u8;
        MoraleRoll {
            dice: faces.to_vec(),
            failures,
        }
    }
}

/// Every outcome of `n` dice, each face sequence once (6^n of them), in lexicographic order. More
/// dice than a `usize` can count the outcomes of (25 or more, far past any rule) give none.
pub fn all_faces(n: usize) -> impl Iterator<Item = Vec<u8>> {
    let total = u32::try_from(n)
        .ok()
        .and_then(|n| 6usize.checked_pow(n))
        .unwrap_or(0);
    (0..total).map(move |mut k| {
        let mut faces = vec![0u8; n];
        for slot in faces.iter_mut().rev() {
            *slot = (k % 6) as u8 + 1;
            k /= 6;
        }
        faces
    })
}

/// Exact activation odds as counts out of 6^dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivationCounts {
    /// Number of equally likely outcomes: 6^dice.
    pub outcomes: u64,
    /// `successes[k]` outcomes give exactly k actions.
    pub successes: Vec<u64>,
    /// Outcomes that cause a turnover.
    pub turnover: u64,
}

impl ActivationCounts {
    /// P(exactly k successes) for k = 0..=dice.
    pub fn success_probabilities(&self) -> Vec<f64> {
        self.successes
            .iter()
            .map(|&c| c as f64 / self.outcomes as f64)
            .collect()
    }

    /// P(turnover).
    pub fn turnover_probability(&self) -> f64 {
        self.turnover as f64 / self.outcomes as f64
    }

    /// Expected number of actions.
    pub fn mean(&self) -> f64 {
        let sum: u64 = self
            .successes
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u64 * c)
            .sum();
        sum as f64 / self.outcomes as f64
    }
}

/// Enumerate every face sequence of an activation roll and count the results exactly. `automatic` of the
/// `dice` are successes that are not rolled (the Hero trait): only 6^(dice − automatic) outcomes exist.
pub fn activation_counts(
    quality: u8,
    dice: u8,
    automatic: u8,
    rules: &RollRules,
) -> Result<ActivationCounts, DiceError> {
    rules.check_dice_count(dice)?;
    let automatic = automatic.min(dice);
    let mut counts = ActivationCounts {
        outcomes: 0,
        successes: vec![0; usize::from(dice) + 1],
        turnover: 0,
    };
    for faces in all_faces(usize::from(dice - automatic)) {
        let roll = ActivationRoll::evaluate(&faces, quality, automatic, rules);
        counts.outcomes += 1;
        counts.successes[usize::from(roll.successes)] += 1;
        if roll.turnover {
            counts.turnover += 1;
        }
    }
    Ok(counts)
}

/// Exact morale odds: `counts[k]` of 216 outcomes give k failures.
pub fn morale_counts(quality: u8, modifier: i8, rules: &RollRules) -> [u64; 4] {
    let mut counts = [0u64; 4];
    for (k, c) in morale_counts_of(3, quality, modifier, rules)
        .into_iter()
        .enumerate()
    {
        counts[k] = c;
    }
    counts
}

/// Exact morale odds for a check of `dice` dice (the rule constant `morale.dice`): `counts[k]` of the
/// 6^dice outcomes give k failures, k = 0..=dice.
/// Too many dice to enumerate (see [`all_faces`]) have no counts: an empty list.
pub fn morale_counts_of(dice: usize, quality: u8, modifier: i8, rules: &RollRules) -> Vec<u64> {
    if u32::try_from(dice)
        .ok()
        .and_then(|n| 6usize.checked_pow(n))
        .is_none()
    {
        return Vec::new();
    }
    let mut counts = vec![0u64; dice + 1];
    for faces in all_faces(dice) {
        counts[usize::from(MoraleRoll::evaluate(&faces, quality, modifier, rules).failures)] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: RollRules = RollRules::RULEBOOK;

    fn faces(d: &mut Dice, n: usize) -> Vec<u8> {
        d.roll(n).iter().map(|d| d.face).collect()
    }

    #[test]
    fn keyed_dice_roll_the_same_faces_for_a_key_whatever_was_drawn_before() {
        // Two playouts on one seed that spend dice differently, then roll for the same key.
        let (mut a, mut b) = (Dice::keyed(9), Dice::keyed(9));
        assert_eq!(faces(&mut a, 3), faces(&mut b, 3), "same seed, same faces");
        faces(&mut a, 5);
        a.below(7);
        a.at(42);
        b.at(42);
        let (fa, fb) = (faces(&mut a, 20), faces(&mut b, 20));
        assert_eq!(fa, fb);
        assert!(fa.iter().all(|f| (1..=6).contains(f)));
        // The second use of a key is a position of its own, and another key another.
        a.at(42);
        b.at(43);
        let (sa, sb) = (faces(&mut a, 20), faces(&mut b, 20));
        assert_ne!(sa, fa);
        assert_ne!(sa, sb);
        // Another seed, other faces for the same key.
        let mut c = Dice::keyed(10);
        c.at(42);
        assert_ne!(faces(&mut c, 20), fa);
    }

    #[test]
    fn a_stream_ignores_keys_and_keyed_faces_are_fair() {
        let (mut a, mut b) = (Dice::new(9), Dice::new(9));
        a.at(42);
        assert_eq!(faces(&mut a, 50), faces(&mut b, 50));
        assert!(!a.is_keyed() && Dice::keyed(1).is_keyed());
        let mut k = Dice::keyed(3);
        let mut count = [0u32; 6];
        for i in 0..6000u64 {
            if i % 10 == 0 {
                k.at(i);
            }
            count[usize::from(k.d6().face) - 1] += 1;
        }
        assert!(count.iter().all(|c| (850..1150).contains(c)), "{count:?}");
    }

    #[test]
    fn natural_one_fails_and_six_succeeds_whatever_the_quality() {
        assert!(!R.succeeds(1, 1, 5));
        assert!(R.succeeds(6, 7, -3));
        assert!(R.succeeds(3, 3, 0));
        assert!(!R.succeeds(2, 3, 0));
        assert!(R.succeeds(2, 3, 1));
        // A variant's numbers are read, not the rulebook's: no face always fails.
        let no_auto_fail = RollRules {
            natural_fail: 0,
            ..R
        };
        assert!(no_auto_fail.succeeds(1, 1, 0));
    }

    #[test]
    fn forced_faces_come_first_then_the_stream_resumes_where_it_was() {
        let mut a = Dice::new(7);
        let mut b = Dice::new(7);
        a.force([4, 3]).unwrap();
        assert_eq!(
            a.d6(),
            Die {
                face: 4,
                forced: true
            }
        );
        assert_eq!(
            a.d6(),
            Die {
                face: 3,
                forced: true
            }
        );
        let tail_a: Vec<u8> = a.roll(20).iter().map(|d| d.face).collect();
        let tail_b: Vec<u8> = b.roll(20).iter().map(|d| d.face).collect();
        assert_eq!(tail_a, tail_b);
    }

    #[test]
    fn a_bad_forced_face_queues_nothing() {
        let mut d = Dice::new(1);
        assert_eq!(d.force([3, 7]), Err(DiceError::BadFace(7)));
        assert!(d.pending_forced().is_empty());
    }

    #[test]
    fn activation_of_zero_or_four_dice_is_refused() {
        let mut d = Dice::new(1);
        assert_eq!(
            d.activation(3, 0, 0, &R),
            Err(DiceError::BadDiceCount(0, 3))
        );
        assert_eq!(
            d.activation(3, 4, 0, &R),
            Err(DiceError::BadDiceCount(4, 3))
        );
    }

    #[test]
    fn the_rulebook_activation_example() {
        // A Q3+ hero rolls two dice: 4 and 1 → one action, turn continues.
        let r = ActivationRoll::evaluate(&[4, 1], 3, 0, &R);
        assert_eq!((r.successes, r.failures, r.turnover), (1, 1, false));
        // With 2 and 1 it takes no action and the hero turn ends.
        let r = ActivationRoll::evaluate(&[2, 1], 3, 0, &R);
        assert_eq!((r.successes, r.failures, r.turnover), (0, 2, true));
        // A Hero choosing three dice rolls two and has one automatic success (SUPPLEMENT §4): both
        // rolled dice failing is still a turnover, with one action.
        let r = ActivationRoll::evaluate(&[2, 1], 3, 1, &R);
        assert_eq!((r.successes, r.failures, r.turnover), (1, 2, true));
        assert_eq!((r.dice.len(), r.automatic), (2, 1));
    }

    #[test]
    fn hero_passes_a_quality_check_without_rolling() {
        let mut d = Dice::new(3);
        d.force([1]).unwrap();
        let q = d.quality_check(3, true, &R);
        assert!(q.passed && q.face.is_none());
        assert_eq!(d.pending_forced(), vec![1]);
        let q = d.quality_check(3, false, &R);
        assert_eq!((q.face, q.passed), (Some(1), false));
    }

    #[test]
    fn morale_counts_failures_with_the_modifier() {
        assert_eq!(MoraleRoll::evaluate(&[1, 3, 4], 4, 0, &R).failures, 2);
        assert_eq!(MoraleRoll::evaluate(&[1, 3, 4], 4, 1, &R).failures, 1);
    }

    #[test]
    fn all_faces_enumerates_each_sequence_once() {
        let v: Vec<Vec<u8>> = all_faces(2).collect();
        assert_eq!(v.len(), 36);
        assert_eq!(v[0], vec![1, 1]);
        assert_eq!(v[35], vec![6, 6]);
        let mut sorted = v.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), 36);
    }

    #[test]
    fn each_purpose_rolls_from_its_own_stream() {
        // One game's dice draw the wave's choices first, another's not: the combat rolls after are the
        // same, and so are the heroes' activations, whatever the other streams drew.
        let (mut a, mut b) = (Dice::per_purpose(9), Dice::per_purpose(9));
        a.select(Stream::Wave);
        faces(&mut a, 7);
        a.select(Stream::EnemyActivation);
        faces(&mut a, 3);
        for s in [Stream::Combat, Stream::HeroActivation] {
            a.select(s);
            b.select(s);
            assert_eq!(faces(&mut a, 20), faces(&mut b, 20), "{s:?}");
        }
        // The streams differ from each other and from the one stream of Dice::new.
        let mut c = Dice::per_purpose(9);
        c.select(Stream::Wave);
        let wave = faces(&mut c, 20);
        c.select(Stream::Deploy);
        assert_ne!(wave, faces(&mut c, 20));
        assert_ne!(wave, faces(&mut Dice::new(9), 20));
    }

    #[test]
    fn purposes_name_their_streams() {
        use crate::state::Side;
        assert_eq!(Stream::of("group 2 profile", None), Stream::Wave);
        assert_eq!(
            Stream::of("wave Behaviour (one for the wave)", None),
            Stream::Wave
        );
        assert_eq!(
            Stream::of("deploy Group 1 anchor on edge 2 (east)", None),
            Stream::Deploy
        );
        assert_eq!(Stream::of("opportunity edge", None), Stream::Opportunity);
        assert_eq!(
            Stream::of("activation", Some(Side::Heroes)),
            Stream::HeroActivation
        );
        assert_eq!(
            Stream::of("reroll", Some(Side::Enemies)),
            Stream::EnemyActivation
        );
        assert_eq!(Stream::of("melee", Some(Side::Heroes)), Stream::Combat);
        assert_eq!(Stream::of("my script's roll", None), Stream::Combat);
    }

    #[test]
    fn a_pick_changes_only_when_the_new_option_wins_and_is_fair() {
        let three = ["Goblin", "Orc Warrior", "Wolf"];
        let four = ["Goblin", "Orc Warrior", "Wolf", "Goblin Shieldbearer"];
        let (mut a, mut b) = (Dice::per_purpose(4), Dice::per_purpose(4));
        let mut counts = [0u32; 3];
        let mut new_won = 0;
        for _ in 0..6000 {
            let (x, y) = (a.pick(&three).unwrap(), b.pick(&four).unwrap());
            counts[x] += 1;
            if y == 3 {
                new_won += 1;
            } else {
                assert_eq!(x, y, "the same pick unless the new option wins");
            }
        }
        // Uniform: each of three about 2,000 (4.5 standard deviations is about ±165), the new one of
        // four about 1,500.
        assert!(
            counts.iter().all(|c| (1835..=2165).contains(c)),
            "{counts:?}"
        );
        assert!((1350..=1650).contains(&new_won), "{new_won}");
        assert_eq!(Dice::new(1).pick::<&str>(&[]), None);
    }

    #[test]
    fn dice_saved_as_one_stream_still_draw_from_it() {
        // A game saved before the streams were split holds one stream: it resumes drawing from it.
        let mut one = Dice::new(5);
        let saved: Dice = serde_json::from_str(&serde_json::to_string(&one).unwrap()).unwrap();
        let mut saved = saved;
        saved.select(Stream::Wave);
        assert_eq!(faces(&mut saved, 12), faces(&mut one, 12));
        // Split dice keep every stream's place through a save.
        let mut split = Dice::per_purpose(5);
        split.select(Stream::Deploy);
        faces(&mut split, 4);
        let mut back: Dice = serde_json::from_str(&serde_json::to_string(&split).unwrap()).unwrap();
        for s in [Stream::Deploy, Stream::Combat] {
            split.select(s);
            back.select(s);
            assert_eq!(faces(&mut split, 8), faces(&mut back, 8));
        }
    }
}
