// Prints what Pi (npm @mariozechner/pi-coding-agent) makes of a session file: leaf, context
// messages, model, thinking level, name and labels, as one JSON object. Works on a copy, since
// Pi rewrites files it migrates.
// Usage: PI_PACKAGE=<.../pi-coding-agent/dist/index.js> node read_context.mjs <session.jsonl>
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const pi = await import(process.env.PI_PACKAGE ?? "@mariozechner/pi-coding-agent");
const src = process.argv[2];
const copy = join(mkdtempSync(join(tmpdir(), "pi-read-")), basename(src));
copyFileSync(src, copy);
const sm = pi.SessionManager.open(copy);
const context = sm.buildSessionContext();
const labels = {};
for (const entry of sm.getEntries()) {
	const label = sm.getLabel(entry.id);
	if (label) labels[entry.id] = label;
}
console.log(JSON.stringify({
	leafId: sm.getLeafId(),
	name: sm.getSessionName() ?? null,
	labels,
	model: context.model,
	thinkingLevel: context.thinkingLevel,
	messages: context.messages,
}, null, 1));
