-- Huge (SUPPLEMENT §4, §9; core §6.4): +1 in melee against a smaller model, shot at +1, +1 on structural
-- attacks (see scripts/lib/size.lua). The 2" base is the rosters'.
return require("lib.size")("Huge")
