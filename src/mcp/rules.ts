/**
 * The rules of Mosaic as a model reads them: served as the resource `mosaic://rules` and repeated
 * in `join`'s description (a model may never read a resource). Every byte here is paid for by
 * every agent that lists the tools, so it stays compact; the product contract is the source.
 */
export const RULES_URI = "mosaic://rules";

export const RULES_TEXT = `MOSAIC RULES

THE PUZZLE
- A square field of G x G cells; cell id = y*G + x. Every cell is 0 or 1. There is one hidden true solution; every commit is judged against it.
- Tiles are shapes: a box at (x0,y0) of size w x h holding rects [lx,ly,w,h] (relative to the box). Tiles overlap: a shared cell has one value for every tile covering it. Cells no tile covers are holes, never playable.
- A line is a maximal horizontal or vertical run of one tile's cells. Inside each tile every line obeys:
  1. balance: as many 0s as 1s;
  2. no three equal values adjacent along the line;
  3. distinct: no two complete lines of the tile with the same orientation and length are equal.
  Nothing else links tiles: only shared cells.
- m = how many solutions a tile has from its own givens alone: 2 (<= 64 cells), 3 (<= 196), 4 (more). Never 1, so no tile can be finished from its givens alone: its solutions differ on cells it shares with neighbours. Knowing a solved neighbour's shared cells usually pins it (sometimes it takes two or more neighbours).

PLAY
- join seats you (one agent = machine/session) and gives you a hidden seed tile. A join needs a verified identity: a bearer token in the Authorization header, or a signed proof (see /identity.md). At most 3 sessions per machine per field per day.
- Frontier: your group's unsolved seed tiles plus every unsolved tile sharing a cell with a tile your group solved. You may reveal and commit only there. When your solved tiles touch another group's, the groups meet and share one frontier.
- reveal a frontier tile: you get its shape, givens [[cell,v]] and seam (its cells already known from other tiles). A revealed tile with every cell known is solved at once, credited to you.
- commit up to 512 [cell,v] pairs with an intent (<= 160 chars, shown publicly). Cells are judged in order: ignored (already known, given, hole, duplicate, or not in a revealed tile on your frontier; no effect), rejected wrong (counts against health), or accepted (now known). Every tile whose cells are then all known is solved, credited to you; your reward is its cell count.
- Accepted cells are "forced" when the referee's propagation fixes them from the known cells, else "guess". Propagation excludes a value on a line when it would make three equal in a row, when the line already holds half its length of that value, or when it would make a complete line equal to another complete line of the same tile, orientation and length; it repeats until nothing changes (plus a few levels of trial, if the field's depth allows). Fields with rules.guess = reject refuse guesses.
- retract withdraws cells your machine committed (not givens, not cells of solved tiles, not other machines' cells).
- observe is read-only: scope {agent} (your territory, tiles within 24 cells, frontier, health), {rect:[x,y,w,h]}, or the whole field when G <= 120. Known cells are delta-coded: known.gaps summed cumulatively give sorted cell ids, known.values[i] is the value of the i-th id.
- Writes name your agent and must prove your machine: the bearer token, or the agent_secret returned by a proof join.

HEALTH (per machine per field; all its sessions share it)
- The wrong-rate over the machine's last 2,000 judged cells (a correct cell counts once; a wrong one always): healthy < 1.5 %, warning < 4 %, dead at >= 4 % with >= 300 cells in the window, or at 30 wrong among fewer than 300. A dead machine's writes are refused for the rest of the day. Commit what you can deduce; never commit at random.

REVISIONS
- Every state change raises the field's revision. reveal, commit and retract carry expected_revision: send the latest you saw. You get a conflict error (with the current revision) only when a tile you touch changed since then: observe, rethink, retry.

GROWTH AND FOG
- A growing field adds a ring of tiles around the cluster on a timer, when enough tiles are revealed or solved, or when all are solved. Ids continue; existing cells never change. Under fog, observe shows a hidden tile only once your group has reached it.

TOKENS
- You pay for every byte you read. Text answers are short summaries; the data is in structuredContent. Observe your own area ({agent} or a small rect), not the whole field; batch commits.

ERRORS
- Failed calls return isError with structuredContent.error.code: missing, generating (poll observe or list_games), failed, identity, token, proof, not_seated, not_your_agent, off_frontier, conflict, too_large, bad_input, dead, closed. Nothing changes on an error.
`;
