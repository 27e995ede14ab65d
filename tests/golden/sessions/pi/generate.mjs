// Writes a v3 session with Pi's own SessionManager (npm @mariozechner/pi-coding-agent 0.73.1),
// touching every entry kind, a branch with a summary, a label, a name and a compaction.
// Usage: PI_PACKAGE=<.../pi-coding-agent/dist/index.js> node generate.mjs <out.jsonl>
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const pi = await import(process.env.PI_PACKAGE ?? "@mariozechner/pi-coding-agent");
const out = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), "pi-golden-"));
const sm = pi.SessionManager.create("/home/user/project", dir);

const usage = (input, output) => ({
	input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output,
	cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: 0, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 },
});
const assistant = (content, stopReason, ts, provider = "anthropic", model = "claude-sonnet-4-5") => ({
	role: "assistant", content, api: provider === "anthropic" ? "anthropic-messages" : "openai-completions",
	provider, model, usage: usage(100, 20), stopReason, timestamp: ts,
});
const ts = 1733234400000;

sm.appendMessage({ role: "user", content: "List the files in this project", timestamp: ts + 1000 });
sm.appendMessage(assistant([
	{ type: "thinking", thinking: "The user wants a listing.", thinkingSignature: "sig-1" },
	{ type: "text", text: "Let me look." },
	{ type: "toolCall", id: "toolu_01", name: "bash", arguments: { command: "ls" } },
], "toolUse", ts + 2000));
sm.appendMessage({ role: "toolResult", toolCallId: "toolu_01", toolName: "bash",
	content: [{ type: "text", text: "README.md\nsrc\n" }], isError: false, timestamp: ts + 3000 });
const answer = sm.appendMessage(assistant([{ type: "text", text: "There are two entries: README.md and src/." }], "stop", ts + 4000));
sm.appendThinkingLevelChange("high");
sm.appendModelChange("openai", "gpt-4o");
sm.appendMessage({ role: "user", content: [
	{ type: "text", text: "What is in this picture?" },
	{ type: "image", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", mimeType: "image/png" },
], timestamp: ts + 5000 });
sm.appendMessage(assistant([{ type: "text", text: "A single pixel — ünïcødé too." }], "stop", ts + 6000, "openai", "gpt-4o"));
sm.appendMessage({ role: "bashExecution", command: "git status", output: "clean\n", exitCode: 0,
	cancelled: false, truncated: false, timestamp: ts + 7000 });
sm.appendCustomEntry("my-ext", { count: 1 });
sm.appendCustomMessageEntry("my-ext", "Remember to run the tests.", true, { source: "ext" });
sm.appendLabelChange(answer, "the answer");
sm.appendSessionInfo("Listing files");
sm.branchWithSummary(answer, "Looked at a picture of one pixel.", { readFiles: [], modifiedFiles: [] });
const retry = sm.appendMessage({ role: "user", content: "Let's read README.md instead", timestamp: ts + 8000 });
sm.appendMessage(assistant([{ type: "text", text: "It says hello." }], "stop", ts + 9000));
sm.appendCompaction("The user listed files and read README.md.", retry, 5000,
	{ readFiles: ["README.md"], modifiedFiles: [] });
sm.appendMessage({ role: "user", content: "Thanks", timestamp: ts + 10000 });
sm.appendMessage(assistant([{ type: "text", text: "You're welcome." }], "stop", ts + 11000));

copyFileSync(sm.getSessionFile(), out);
console.log(out);
