// The runnable examples in examples/providers/: each runs with one command and
// prints the exact argument text from every way of calling its provider.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;
const EXACT = '{"user_id": 9007199254740993, "score_floor": 1.0}';

async function run(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", file], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return stdout.trimEnd().split("\n");
}

test("examples/providers/openai.ts", async () => {
  expect(await run("examples/providers/openai.ts")).toEqual([
    `Chat Completions stream    call_7Qm2 get_user ${EXACT}`,
    `Chat Completions result    call_7Qm2 get_user ${EXACT}`,
    `Responses stream           call_7Qm2 get_user ${EXACT}`,
    `CallMCPTool.raw_args_json  ${EXACT}`,
    'what JSON.parse would give {"user_id":9007199254740992,"score_floor":1}',
  ]);
});

test("examples/providers/anthropic.ts", async () => {
  expect(await run("examples/providers/anthropic.ts")).toEqual([
    `messages.stream()           toolu_01Xk get_user ${EXACT}`,
    `create().asResponse()       toolu_01Xk get_user ${EXACT}`,
    'JSON.stringify(block.input) {"user_id":9007199254740992,"score_floor":1} (id and 1.0 changed)',
    "toolCallsFromMessage(parsed) provider-text-unavailable at /content/1/input",
    `CallMCPTool.raw_args_json   ${EXACT}`,
  ]);
});
