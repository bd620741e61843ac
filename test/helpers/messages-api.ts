// A local stand-in for an LLM provider's Messages API (the Anthropic wire format): records each
// request and answers with one text block, so sampling paths are tested without a paid API.
export interface MessagesApi {
  port: number;
  url: string;
  seen: Array<{ headers: Record<string, string>; body: any }>;
  stop(): void;
}

export function messagesApi(reply: (body: any) => string): MessagesApi {
  const seen: MessagesApi["seen"] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body: any = await req.json();
      seen.push({ headers: Object.fromEntries(req.headers), body });
      return Response.json({
        id: `msg_${seen.length}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [{ type: "text", text: reply(body) }],
        stop_reason: "end_turn",
        usage: { input_tokens: 3, output_tokens: 4 },
      });
    },
  });
  return { port: server.port!, url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) };
}
