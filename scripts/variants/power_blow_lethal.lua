-- The rulebook's other reading of Power Blow (core §3.4: "A Power Blow ... defeat[s] the target on any
-- loss"). SUPPLEMENT §4 settles the default the other way (the worked example and Song of Blades agree);
-- this variant restores the literal text by overriding one rule constant — no Rust involved.
return {
	name = "Power Blow is Lethal",
	description = "A winning Power Blow defeats the target on any loss, as the text of core §3.4 reads.",
	rules = {
		combat = { power_blow_lethal = true },
	},
}
