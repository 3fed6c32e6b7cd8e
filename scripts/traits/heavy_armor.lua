-- Heavy Armor (SUPPLEMENT §4 and §9; Song of Blades: "If beaten in combat, does not Recoil or Fall"):
-- when its owner loses, a Recoil or Defenseless result is replaced by no effect. Defeated, Gruesome
-- Kill and Lethal results (SUPPLEMENT §4 rules 2-4) are left alone, as is an Entangle.
local softened = { recoil = true, defenseless = true }

return {
	on_result = function(ctx, self, win)
		if win.role == "loser" and softened[win.result] then
			return { result = "none", reason = "Heavy Armor" }
		end
	end,
}
