-- Leader (core §3.1): friends within Long of it, and of each other, may activate with it as a group on one
-- roll at the worst Quality. The kernel checks the group; this grants the right to lead one.
return {
	permissions = { lead = true },
}
