// createMessageViaApi against local stand-ins speaking the Anthropic Messages API and the OpenAI
// chat-completions wire formats: the request they receive, and the MCP result mapped back.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMessageViaApi, type CreateMessageParams } from "../../src/cloud/sampling.ts";
import type { ProjectConfig } from "../../src/config/pml-json.ts";

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: any;
}
let seen: Seen[] = [];
let status = 200;
/** A stop reason the stand-ins send instead of their usual one (a provider may send any string). */
let stop: string | undefined;

const api = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const body: any = await req.json();
    seen.push({ path, headers: Object.fromEntries(req.headers), body });
    if (status !== 200) return Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status });
    if (path === "/v1/messages")
      return Response.json({
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: body.model,
        content: [
          { type: "text", text: "Hello " },
          { type: "text", text: "there" },
        ],
        stop_reason: stop ?? (body.stop_sequences ? "stop_sequence" : "end_turn"),
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 2 },
      });
    if (path === "/v1/chat/completions")
      return Response.json({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: "Hi from openai" }, finish_reason: stop ?? "length" }],
        usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
      });
    return new Response("not found", { status: 404 });
  },
});
const url = `http://127.0.0.1:${api.port}`;
const ws = mkdtempSync(join(tmpdir(), "pml-sampling-"));

const params: CreateMessageParams = {
  messages: [
    { role: "user", content: { type: "text", text: "Say hello" } },
    { role: "assistant", content: { type: "text", text: "Sure." } },
    {
      role: "user",
      content: [
        { type: "text", text: "Now." },
        { type: "image", data: "iVBORw0K", mimeType: "image/png" },
      ],
    },
  ],
  systemPrompt: "Be brief.",
  maxTokens: 64,
  temperature: 0.2,
  stopSequences: ["\n\n"],
};

const config = (sampling: Record<string, unknown>) => ({ sampling }) as unknown as ProjectConfig;

afterEach(() => {
  seen = [];
  status = 200;
  stop = undefined;
});
afterAll(() => {
  api.stop(true);
  rmSync(ws, { recursive: true, force: true });
});

describe("createMessageViaApi", () => {
  test("Anthropic Messages API: request shape and mapped result", async () => {
    const r = await createMessageViaApi(params, {
      config: config({ provider: "anthropic", url, model: "claude-sonnet-4-5" }),
      workspace: ws,
      env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    });
    expect(r).toEqual({ role: "assistant", content: { type: "text", text: "Hello there" }, model: "claude-sonnet-4-5", stopReason: "stopSequence" });
    const [req] = seen;
    expect(req!.path).toBe("/v1/messages");
    expect(req!.headers["x-api-key"]).toBe("sk-ant-test");
    expect(req!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      system: "Be brief.",
      temperature: 0.2,
      stop_sequences: ["\n\n"],
      messages: [
        { role: "user", content: [{ type: "text", text: "Say hello" }] },
        { role: "assistant", content: [{ type: "text", text: "Sure." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Now." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
          ],
        },
      ],
    });
  });

  test("a stop reason pml has no name for passes through as it came, whatever its text (constructor, __proto__)", async () => {
    for (const odd of ["constructor", "__proto__", "toString", "paused_for_reasons"]) {
      stop = odd;
      const a = await createMessageViaApi(params, { config: config({ provider: "anthropic", url, model: "m" }), workspace: ws, env: { ANTHROPIC_API_KEY: "k" } });
      const o = await createMessageViaApi(params, { config: config({ provider: "openai", url: `${url}/v1`, model: "m" }), workspace: ws, env: { OPENAI_API_KEY: "k" } });
      expect([a.stopReason, o.stopReason]).toEqual([odd, odd]);
    }
  });

  test("OpenAI-compatible chat completions: request shape and mapped result", async () => {
    const r = await createMessageViaApi(params, {
      config: config({ provider: "openai", url: `${url}/v1`, model: "gpt-4o-mini", api_key_env: "MY_LLM_KEY" }),
      workspace: ws,
      env: { MY_LLM_KEY: "sk-openai-test" },
    });
    expect(r).toEqual({ role: "assistant", content: { type: "text", text: "Hi from openai" }, model: "gpt-4o-mini", stopReason: "maxTokens" });
    const [req] = seen;
    expect(req!.path).toBe("/v1/chat/completions");
    expect(req!.headers.authorization).toBe("Bearer sk-openai-test");
    expect(req!.body).toEqual({
      model: "gpt-4o-mini",
      max_tokens: 64,
      temperature: 0.2,
      stop: ["\n\n"],
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello" },
        { role: "assistant", content: "Sure." },
        {
          role: "user",
          content: [
            { type: "text", text: "Now." },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K" } },
          ],
        },
      ],
    });
  });

  test("the first model hint names the model unless the configured one matches a hint", async () => {
    const opts = { config: config({ provider: "anthropic", url, model: "claude-sonnet-4-5" }), workspace: ws, env: { ANTHROPIC_API_KEY: "k" } };
    await createMessageViaApi({ ...params, modelPreferences: { hints: [{ name: "claude-haiku-4-5" }, { name: "x" }] } }, opts);
    expect(seen.at(-1)!.body.model).toBe("claude-haiku-4-5");
    await createMessageViaApi({ ...params, modelPreferences: { hints: [{ name: "sonnet" }] } }, opts);
    expect(seen.at(-1)!.body.model).toBe("claude-sonnet-4-5");
  });

  test("clear errors: no config, no key, no model, rejected key, http to a remote host", async () => {
    const run = (cfg: Record<string, unknown> | undefined, env: Record<string, string> = { ANTHROPIC_API_KEY: "k" }, p = params) =>
      createMessageViaApi(p, { config: (cfg ? config(cfg) : {}) as ProjectConfig, workspace: ws, env }).then(
        () => "ok",
        (e: Error) => e.message,
      );
    expect(await run(undefined)).toContain('.pml.json "sampling"');
    expect(await run({ provider: "gemini" })).toContain('"sampling.provider" must be "anthropic" or "openai"');
    expect(await run({ provider: "anthropic", url, model: "m" }, {})).toStartWith("sampling needs ANTHROPIC_API_KEY");
    expect(await run({ provider: "anthropic", url })).toContain('"sampling.model" is not set');
    expect(await run({ provider: "anthropic", url: "http://llm.invalid", model: "m" })).toContain("must use https");
    status = 401;
    expect(await run({ provider: "anthropic", url, model: "m" })).toBe(`ANTHROPIC_API_KEY was rejected by ${url} (HTTP 401: invalid x-api-key). Check the key.`);
  });
});
