-- The default hero policy's fighting sense (scripts/policies/default.lua): who goes for which enemy,
-- when to shoot, how many dice to roll. Everything here is recomputed from the table at every call (no
-- module state: a plan kept between calls would not survive a hot reload, and the table changes anyway).
local P = require("lib.priority")
local A = require("lib.act")
local S = require("lib.spellcasting")

local T = {}

local town_hall = P.town_hall

--- The enemies in the order they threaten the village: a summoner first (one that knows a Summoning
--- spell, the Lich's Raise Dead: what it raises vanishes when it is Defeated, §3.7, and a lone hero
--- would otherwise fight the dead it keeps raising), then closest to the Town Hall (ties by id). The
--- kernel filters and sorts (`ctx:models` with `near`).
function T.threats(ctx)
	local th = town_hall(ctx)
	local foes = ctx:models({ side = "enemies", near = th })
	local first = ctx:models({ side = "enemies", near = th, spell_kind = "summoning" })
	if #first == 0 then
		return foes
	end
	local seen = {}
	for _, f in ipairs(first) do
		seen[f.id] = true
	end
	for _, f in ipairs(foes) do
		if not seen[f.id] then
			first[#first + 1] = f
		end
	end
	return first
end

--- Whether a model heals rather than fights: its scripts let it heal a friend (the Healer trait grants
--- the `heal` permission the kernel checks).
local function healer(ctx, m)
	return ctx:permission(m, "heal") ~= nil
end

--- The models of the heroes' side that go for the enemy: everyone but the Healers, unless only Healers
--- are left.
function T.fighters(ctx)
	local all, out = ctx:models({ side = "heroes" }), {}
	for _, f in ipairs(all) do
		if not healer(ctx, f) then
			out[#out + 1] = f
		end
	end
	return #out > 0 and out or all
end

--- The enemy `self` goes for. Each model of the heroes' side gets one: taking the threats in order, the
--- nearest model not yet given one goes for it, so the party spreads over the enemies instead of
--- queueing behind the same one. Models left over (more defenders than enemies, Healers) go for their
--- nearest enemy. `threats` are T.threats(ctx). Only `self`'s enemy is worked out: the handing out stops
--- at the threat `self` is given (the rest of the party's would not change it). Nil when there are no
--- threats.
function T.assigned(ctx, self, threats)
	local friends = T.fighters(ctx)
	local taken, free = {}, #friends
	for _, foe in ipairs(threats) do
		if free == 0 then
			break
		end
		local best, best_d
		for i, d in ipairs(ctx:distances_to(friends, foe)) do
			local f = friends[i]
			if not taken[f.id] and (best == nil or d < best_d - 1e-9) then
				best, best_d = f, d
			end
		end
		if best.id == self.id then
			return foe
		end
		taken[best.id] = true
		free = free - 1
	end
	if #threats > 0 then
		return P.smallest_of(threats, ctx:distances_from(self, threats))[1]
	end
	return nil
end

--- The activation rules the dice are chosen by, read once per choice (`ctx:rule` is a call into the
--- kernel each time).
local function activation_rules(ctx)
	return {
		turnover_failures = ctx:rule("activation", "turnover_failures"),
		natural_fail = ctx:rule("activation", "natural_fail"),
		natural_success = ctx:rule("activation", "natural_success"),
		hero_automatic_successes = ctx:rule("activation", "hero_automatic_successes"),
		max_dice = ctx:rule("activation", "max_dice"),
	}
end

--- The actions a roll of `n` dice is worth to a model no friend is waiting behind: its successes, plus,
--- when exactly one rolled die fails without a turnover, a fresh roll (§3.1: still Active) — so
--- E(n) = successes / (1 − P(exactly one failure)). `p` is a die's chance of success; `auto` the
--- successes taken without a roll (the Hero trait), which replace dice; `r` the activation rules.
local function worth(r, n, p, auto)
	local rolled = math.max(n - auto, 0)
	local again = 0
	if rolled >= 1 and r.turnover_failures > 1 then
		again = rolled * (1 - p) * p ^ (rolled - 1)
	end
	return (math.min(auto, n) + rolled * p) / (1 - again)
end

--- The chance that `n` dice (less `auto` taken without a roll) fail often enough for a turnover.
local function turnover_chance(r, n, p, auto)
	local rolled, need = math.max(n - auto, 0), r.turnover_failures
	local total, choose = 0, 1
	for k = 0, rolled do
		if k >= need then
			total = total + choose * (1 - p) ^ k * p ^ (rolled - k)
		end
		choose = choose * (rolled - k) / (k + 1)
	end
	return total
end

--- A die's chance of success at Quality `q` (a natural 1 fails, a natural 6 succeeds).
local function success(r, q)
	local nat_fail, nat_success = r.natural_fail, r.natural_success
	local n = 0
	for face = 1, 6 do
		if face ~= nat_fail and (face >= q or face >= nat_success) then
			n = n + 1
		end
	end
	return n / 6
end

--- Activation dice: two, which keeps a turnover (two failures) to one roll in nine at Quality 3+, while a
--- friend still waits for its first activation (one when two are worth less once the friends' actions a
--- turnover would cost are counted); the last model of the side not yet activated this turn,
--- whose turnover costs nobody a first activation, takes the number of dice worth the most actions
--- (three, unless its Quality is so poor that single dice rolled again and again give more). `others`
--- are models activating with it (a group), which do not count as left behind.
function T.dice(ctx, self, others)
	local with = {}
	for _, o in ipairs(others or {}) do
		with[o.id] = true
	end
	local waiting = 0
	for _, f in ipairs(ctx:models({ side = "heroes", active = true, except = self })) do
		if f.activations == 0 and not with[f.id] then
			waiting = waiting + 1
		end
	end
	-- A group rolls at its worst Quality, and has the Hero's success only if every member has it.
	local r = activation_rules(ctx)
	local hero = r.hero_automatic_successes
	local q, auto = self.quality, ctx:permission(self, "automatic_success") and hero or 0
	for _, o in ipairs(others or {}) do
		q = math.max(q, o.quality)
		if not ctx:permission(o, "automatic_success") then
			auto = 0
		end
	end
	local p = success(r, q)
	-- The reason is words for `:why` and the log: made only while the decision is explained.
	-- nil rather than false, so that `explain and ...` is no reason at all.
	local explain = ctx.explaining or nil
	if waiting > 0 then
		-- Two dice, or one when two are worth less once a turnover is charged two actions for each
		-- friend still waiting: a single die never turns the turn over.
		local function score(n)
			return worth(r, n, p, auto) - turnover_chance(r, n, p, auto) * 2 * waiting
		end
		if score(1) > score(2) + 1e-9 then
			return 1,
				explain and string.format(
					"one die: %d %s for a first activation, and at Quality %d+ two dice risk a turnover worth more than the second die",
					waiting,
					waiting == 1 and "friend waits" or "friends wait",
					q
				)
		end
		return 2,
			explain and string.format(
				"two dice: %d %s for a first activation (a turnover costs them)",
				waiting,
				waiting == 1 and "friend waits" or "friends wait"
			)
	end
	local best, best_n = -1, 3
	for n = r.max_dice, 1, -1 do
		local e = worth(r, n, p, auto)
		if e > best + 1e-9 then
			best, best_n = e, n
		end
	end
	return best_n,
		explain and string.format(
			"the last to activate: %d dice are worth the most actions (%.2f expected, a failed die rolled again)",
			best_n,
			best
		)
end

--- Whether a model nominated again this turn (it failed one die without a turnover, §3.1) has anything
--- left to do: not if it stands in contact having made its one attack (leaving would cost Free Hacks).
local function worth_again(self)
	return not (self.engaged and self.attacks > 0)
end

--- The hero policy's `activate` (§3.1, §3.7): whether to nominate the model now, and how. A Leader with two
--- or more Active friends within reach activates them as its group (one roll for all: fewer chances of
--- a turnover); a Spell-caster with power declares spellcasting; a model nominated again only when it
--- has something left to do.
function T.activation(ctx, self)
	if self.activations > 0 and not worth_again(self) then
		return false, "in contact having made its one attack: nothing left worth another roll"
	end
	local group = {}
	if self.activations == 0 then
		for _, f in ipairs(ctx:leader_group(self)) do
			if f.activations == 0 then
				group[#group + 1] = f
			end
		end
		if #group < 2 then
			group = {}
		end
	end
	local cast = S.declares(self)
	for _, f in ipairs(group) do
		cast = cast or S.declares(f)
	end
	local dice, why = T.dice(ctx, self, group)
	if why and #group > 0 then
		why = string.format(
			"%s; a Leader takes its %d Active friends within reach along on one roll",
			why,
			#group
		)
	end
	if why and self.activations > 0 then
		why = "it failed one die without a turnover and has something left to do: again; " .. why
	end
	return { dice = dice, cast = cast, group = #group > 0 and group or nil }, why
end

--- The adjacent enemy to strike: a Defenseless one first (+2 and it cannot strike back well), then the
--- one nearest the Town Hall.
local function melee_target(ctx, self)
	local engaged = ctx:engaged(self)
	if #engaged == 0 then
		return nil
	end
	for _, e in ipairs(engaged) do
		if e:has("defenseless") then
			return e
		end
	end
	return A.nearest_adjacent(ctx, self, town_hall(ctx), engaged)
end

--- Concentrated Shooting (§3.5): other Active shooters of the side that have not attacked this turn and
--- may shoot `foe` now join the shot, when it is a hard target (Combat above the best shooter's): one roll
--- with the best Combat and the target at −1 per shooter after the first beats separate shots at it.
local function volley(ctx, self, foe)
	local best = self.combat
	local with = {}
	for _, f in ipairs(ctx:models({ side = self.side, active = true, except = self })) do
		if f.attacks == 0 and ctx:can_shoot(f, foe) then
			with[#with + 1] = f
			best = math.max(best, f.combat)
		end
	end
	if #with == 0 or foe.combat <= best then
		return nil
	end
	return { shoot = foe, with = with }
end

--- A shot worth taking: the most threatening enemy the rules let it shoot now. An Undead one (shot at
--- −2) within one move is better charged.
local function shot(ctx, self, threats)
	if not self.weapon or self.weapon_broken then
		return nil
	end
	local reach = ctx:rule("measures", "medium")
	for _, foe in ipairs(threats) do
		local charge = foe:has_trait("Undead") and ctx:distance(self, foe) <= reach
		if not charge and ctx:can_shoot(self, foe) then
			return foe
		end
	end
end

--- A friend worth a Healer's actions: Wounds first (they persist between waves), then a condition.
local function hurt(f)
	return f.wounds > 0 or #f.conditions > 0
end

--- A Healer's action when it has something to do: heal the most hurt adjacent friend, else walk to the
--- most hurt friend. Nil when nobody needs it: then it fights, for the enemies it was not given.
local function healer_act(ctx, self)
	local friends = ctx:models({ side = "heroes", except = self })
	if #friends == 0 then
		return nil
	end
	local function worst(list)
		return P.smallest(list, function(f)
			return -(f.wounds * 10 + #f.conditions)
		end)
	end
	local hurt_adjacent, hurt_any = {}, {}
	for _, f in ipairs(friends) do
		if hurt(f) then
			hurt_any[#hurt_any + 1] = f
			if A.adjacent(ctx, self, f) then
				hurt_adjacent[#hurt_adjacent + 1] = f
			end
		end
	end
	if #hurt_adjacent > 0 then
		return { heal = worst(hurt_adjacent)[1] }
	end
	if #hurt_any > 0 then
		return {
			move = P.smallest(worst(hurt_any), function(f)
				return ctx:distance(self, f)
			end)[1],
		}
	end
	return nil -- nobody to heal: it fights
end

--- A Shooter with nothing to shoot closes in on its enemy to Short of it (it cannot shoot it from here:
--- out of sight or range), not into contact; already within Short and still without a shot (the
--- enemy behind a building, say), it charges: holding would never end the wave.
function T.keep_range(ctx, self, foe)
	local short = ctx:rule("measures", "short")
	if ctx:distance(self, foe) <= short then
		return { move = foe }
	end
	-- Within Short by the route already (the two measures can differ by a hair) and still no shot:
	-- closing in "to Short" would do nothing, and the wave would never end. It charges instead.
	local route = ctx:reach(self, foe)
	if route and route <= short + 1e-6 then
		return { move = foe }
	end
	return { move = foe, within = short }
end

--- The enemy among `threats` that `self` reaches in the fewest move actions (one per straight leg of
--- the route, SUPPLEMENT §11: a short route round two corners can take longer than a long straight
--- one), the shorter route on a tie; nil when none can be reached.
function T.reachable(ctx, self, threats)
	local best, best_actions, best_len = nil, math.huge, math.huge
	for _, foe in ipairs(threats) do
		-- Each query is a route search: the length is asked only of a foe that can still win.
		local actions = ctx:move_actions(self, foe)
		if actions and actions <= best_actions then
			local len = ctx:reach(self, foe)
			if len and (actions < best_actions or len < best_len) then
				best, best_actions, best_len = foe, actions, len
			end
		end
	end
	return best
end

--- One action: strike what is in contact, else cast (a Spell-caster that declared), else shoot, else
--- close in on the enemy assigned to it — breaking free first when it is held.
function T.act(ctx, self)
	local foe = melee_target(ctx, self)
	if foe then
		-- In contact after its one attack this turn (§3.2): stay (leaving costs Free Hacks). The one
		-- attack may as well be a Power Blow when two actions are left for it.
		if not A.may_attack(ctx, self) then
			return nil, "in contact after its one attack this turn: it stays (leaving costs Free Hacks)"
		end
		local blow = self.actions_left >= 2
		local why
		if ctx.explaining then
			why = (
				foe:has("defenseless") and "in contact: it strikes the Defenseless enemy first"
				or "in contact: it strikes the adjacent enemy nearest the Town Hall"
			) .. (blow and ", a Power Blow with two actions left" or "")
		end
		return { melee = foe, power_blow = blow }, why
	end
	-- Transfixed or Entangled and not in contact: nothing else helps until it is free (§3.7).
	if A.held(self) then
		return { break_free = true }, "held and not in contact: it breaks free first (§3.7)"
	end
	-- The threats are read once per action, when first needed: the spell (only a model that declared
	-- casts), the shot and the assignment walk them; a Healer's or a special action needs none.
	local threats
	if self.declared then
		threats = T.threats(ctx)
		local spell = S.cast(ctx, self, threats)
		if spell then
			return spell, "it declared spellcasting and a spell fits (scripts/lib/spellcasting.lua)"
		end
	end
	if healer(ctx, self) then
		local h = healer_act(ctx, self)
		if h then
			return h,
				h.heal and "a Healer beside a hurt friend: it heals the most hurt"
					or "a Healer: it walks to the most hurt friend"
		end
	end
	-- Not in contact: a signature's action it may take now (Field Repairs beside a damaged building,
	-- Smother on a fire within reach) comes before hunting; its script says where and when.
	local special = ctx:usable(self)[1]
	if special then
		return { ability = special.name, target = special.target },
			ctx.explaining and ("not in contact, and its script offers " .. special.name .. " now") or nil
	end
	threats = threats or T.threats(ctx)
	local target = shot(ctx, self, threats)
	if target then
		-- A Shooter with a target keeps its distance once it has shot this turn.
		if not A.may_attack(ctx, self) then
			return nil, "it has shot this turn: it keeps its distance"
		end
		local v = volley(ctx, self, target)
		if v then
			return v, "Concentrated Shooting: the target is tougher than the best shooter (§3.5)"
		end
		return { shoot = target, aimed = self.actions_left >= 2 },
			self.actions_left >= 2
					and "the most threatening enemy the rules let it shoot, aimed with two actions left"
				or "the most threatening enemy the rules let it shoot"
	end
	local mine = T.assigned(ctx, self, threats)
	if mine and mine.behaviour == "Guardian" and not ctx:reach(self, mine) then
		-- A Guardian stands still: one hemmed in by its Group and a building is never reached, and the
		-- wave would never end. Go for the nearest enemy there is a route to instead.
		mine = T.reachable(ctx, self, threats)
	end
	if mine then
		if ctx.explaining then
			-- The threats as the party spreads over them, with how far each is from the Town Hall.
			local th = town_hall(ctx)
			ctx:why(
				"the enemy assigned to it: the threats nearest the Town Hall first, each given the nearest model not yet given one",
				threats,
				th and ctx:distances_to(threats, th) or nil
			)
		end
		if self.weapon and not self.weapon_broken then
			return T.keep_range(ctx, self, mine), "no shot from here: it closes in to Short, not into contact"
		end
		return { move = mine }, "not in contact: it closes in on the enemy assigned to it"
	end
	return nil, "no enemy to go for"
end

return T
