// The 2026-07-28 channel: pml never sends the client a request. A question comes as an
// `input_required` result with the form and a signed request state, and the client's retry of the
// same call carries the answer; a call that cannot be retried as it was made (a capability's run, a
// continuation), or a client without forms, gets the tool-result flow, whose workflow id is a state.
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import { errorResult } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { approvalElicitation, approvalRequired, replyOf } from "./approvals.ts";
import {
  answerOf,
  continued,
  type ApprovalChannel,
  type Approvals,
  type Continuable,
  isRefusal,
  refusedText,
  resumes,
  type Answer,
  type Comeback,
  type ContinueWorkflow,
  type Expected,
  type Pause,
  type Resumed,
  type Round,
  type Taken,
} from "./approval-channel.ts";
import type { Question } from "./question.ts";
import { ErrorCode, ProtocolError } from "../mcp/jsonrpc.ts";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../config/paths.ts";

export class StateChannel implements ApprovalChannel, Continuable {
  constructor(
    readonly session: Session,
    readonly approvals: Approvals,
  ) {}

  /** Never a request to the client: the question comes with the result. */
  ask(): Promise<Answer> {
    return Promise.resolve("later");
  }

  later(round: Round, q: Question, pause: Pause): CallToolResult | InputRequiredResult {
    const { kind, tool, via } = pause;
    const session = this.session;
    const common = { kind, tool, dependency: q.toolId, grant: q.grant, key: q.key, fileAllows: q.fileAllows, approved: [...session.approved], replay: pause.replay, via };
    const states = this.approvals.states();
    if (pause.bind !== undefined && session.supportsFormElicitation()) {
      const state = states.issue({ ...common, args: argsDigest(pause.bind), answers: round.relayAnswers });
      this.approvals.publish(session, q, kind, "input_required", state);
      return inputRequired({ [APPROVAL_INPUT]: { method: "elicitation/create", params: approvalElicitation(q.toolId, q.why, "this call") } }, state);
    }
    const id = states.issue({ ...common, carried: pause.args });
    return approvalRequired({ id, tool, dependency: q.toolId, kind, via }, q.why, this.approvals.publish(session, q, kind, "tool-result", id), q.dismissed);
  }

  relayInput(round: Round, pause: Pause): InputRequiredResult {
    const { key, request } = round.pendingInput!;
    round.pendingInput = undefined;
    const state = this.approvals.states().issue({
      kind: pause.kind,
      tool: pause.tool,
      args: argsDigest(pause.bind),
      approved: [...this.session.approved],
      answers: round.relayAnswers,
      replay: pause.replay,
    });
    return inputRequired({ [key]: request }, state);
  }

  take(cw: ContinueWorkflow, expected: Expected, hold: boolean): Taken | { issuedFor: string } | "held" | undefined {
    const states: RequestStates = this.approvals.states();
    const issued = states.verify(cw.workflow_id);
    if (typeof issued !== "string" && hold && (issued.via ?? issued.dependency) !== undefined) return "held";
    if (typeof issued !== "string" && issued.tool !== expected.tool) return { issuedFor: issued.tool };
    const st = states.redeem(cw.workflow_id, expected.tool);
    if (typeof st === "string" || !st.carried || !st.dependency || !resumes(st, expected)) return undefined;
    return {
      toolId: st.dependency,
      grant: st.grant,
      key: st.key ?? st.dependency,
      fileAllows: st.fileAllows,
      approved: st.approved,
      args: st.carried,
      replay: st.replay,
      via: st.via,
    };
  }

  /** A continuation, or a retry: the state pml issued, verified and used up, with the client's answers. */
  async redeem(round: Round, back: Comeback, expected: Expected, args: Record<string, unknown>): Promise<Resumed | CallToolResult> {
    if (back.continueWorkflow) return continued(this, round, back.continueWorkflow, expected);
    if (back.requestState === undefined) return {};
    const states: RequestStates = this.approvals.states();
    const st = states.redeem(back.requestState, expected.tool, { kind: expected.kind, bind: expected.bind(args) });
    // Anything but a state pml issued for this very retry is the client's fault, answered with a
    // JSON-RPC error that says what to do.
    if (typeof st === "string")
      throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: requestState refused: ${st}. Call ${expected.tool} again without requestState to start over.`);
    const fromPage = this.approvals.live?.forKey(back.requestState);
    fromPage?.done();
    const responses = fromPage?.answer ? { ...back.inputResponses, [APPROVAL_INPUT]: { action: "accept", content: { decision: fromPage.answer } } } : back.inputResponses;
    const stop = await this.resume(round, st, responses, { kind: expected.kind, tool: expected.tool, args, replay: st.replay });
    return stop ?? { replay: st.replay };
  }

  /**
   * Applies a verified retry: approvals of earlier rounds, answers for child servers, and the
   * user's decision on the pending approval. A result means the call ends here (declined, or the
   * client could not ask: the tool-result flow); undefined means go on.
   */
  private async resume(round: Round, st: StatePayload, inputResponses: Record<string, unknown> | undefined, pause: Pause): Promise<CallToolResult | undefined> {
    for (const t of st.approved ?? []) this.session.approved.add(t);
    const { [APPROVAL_INPUT]: answer, ...relayed } = inputResponses ?? {};
    round.relayAnswers = { ...st.answers, ...relayed };
    if (!st.dependency || answer === undefined) return undefined; // not answered: asked again
    const q: Question = { toolId: st.dependency, why: "", grant: st.grant, key: st.key ?? st.dependency, fileAllows: st.fileAllows };
    const reply = answerOf(replyOf(answer));
    if (reply === "later" || reply === "dismissed") return this.later(round, { ...q, dismissed: reply === "dismissed" }, { ...pause, bind: undefined }) as CallToolResult;
    if (isRefusal(reply)) return errorResult(refusedText(q.toolId, reply));
    await this.approvals.approve(this.session, q, reply === "always");
    return undefined;
  }

  workflowTool(workflowId: unknown): string | undefined {
    const st = this.approvals.states().verify(workflowId);
    return typeof st === "string" ? undefined : (st.via ?? st.dependency);
  }

  pausedTool(continuation: unknown): string | undefined {
    const p = this.approvals.states().verify(continuation);
    return typeof p !== "string" && p.kind === "tool" && p.via === undefined ? p.dependency : undefined;
  }
}

// Multi round-trip requests (MCP 2026-07-28): the result that asks with a state, and its form.

/** The key of the approval form among a result's inputRequests. */
export const APPROVAL_INPUT = "pml_approval";

export function inputRequired(inputRequests: InputRequiredResult["inputRequests"], requestState: string): InputRequiredResult {
  return { resultType: "input_required", inputRequests, requestState };
}

// The request state: what pml hands to a client and gets back on a later request: the `requestState` of a
// multi round-trip request (2026-07-28) and, in that revision, the workflow id of the
// tool-result approval flow. It comes back from the client, so it is untrusted input:
//
// - authenticated: HMAC-SHA256 with a key only pml holds (PML_STATE_KEY, else a random key
//   created once in $PML_HOME/state.key with mode 0600; every `pml serve` replica of a
//   deployment must share it, which PML_STATE_KEY allows across machines);
// - bound: to the tool it was issued for, a digest of the arguments, and an expiry (5 min);
// - bound to its workspace (a digest of its real path): a state issued in one workspace is refused
//   in any other, whatever PML_HOME they share;
// - single-use: its nonce is recorded when it is redeemed, as a file created with O_EXCL under
//   <workspace>/.pml/used-state/. The workspace is what replicas serving one project share (their
//   homes may be on other machines), O_EXCL creation is atomic across processes (and on network
//   file systems), and nothing has to be kept in memory, so any replica can redeem a state another
//   one issued, exactly once.
export const STATE_TTL_MS = 5 * 60_000;
const PREFIX = "pml1.";

export interface StatePayload {
  /** What kind of pause this resumes: an approval of a tool, of a call inside `execute`, or a
   * child server's request relayed to the client. */
  kind: "tool" | "execute" | "relay";
  /** The tool the retry must call (wire name as the client called it). */
  tool: string;
  /** Digest of the arguments the retry must carry (unused by workflow tokens, which carry them). */
  args?: string;
  /** The tool id whose approval is asked (approvals). */
  dependency?: string;
  /** Variables the pending approval grants to their namespace when the user approves. */
  grant?: { ns: string; names: string[] };
  /** What the user's yes approves for the session, when narrower than the tool (see approvalKey). */
  key?: string;
  /** .pml.json allows the tool already (see Question.fileAllows). */
  fileAllows?: boolean;
  /** Tool ids (and grants) approved in earlier rounds of the same request. */
  approved?: string[];
  /** execute: results of the calls made before the pause, replayed on the re-run. */
  replay?: unknown[];
  /** relay: answers to child server requests gathered in earlier rounds, by request key. */
  answers?: Record<string, unknown>;
  /** A capability's run paused in a call of its own tool: that tool's id (see Pause.via). */
  via?: string;
  /** The full arguments, for workflow tokens (the continuation does not repeat them). */
  carried?: Record<string, unknown>;
  /** The workspace it was issued in (a digest of its real path). */
  ws?: string;
  exp: number;
  nonce: string;
}

export class RequestStates {
  private readonly key: Buffer;
  private readonly usedDir: string;
  private readonly ws: string;
  private lastSweep = 0;

  constructor(workspace: string, env: Record<string, string | undefined> = process.env) {
    this.key = stateKey(env);
    this.usedDir = join(workspace, ".pml", "used-state");
    this.ws = createHash("sha256").update(realpathOr(workspace)).digest("base64url").slice(0, 22);
  }

  issue(p: Omit<StatePayload, "exp" | "nonce" | "ws">, now = Date.now()): string {
    const payload: StatePayload = { ...p, ws: this.ws, exp: now + STATE_TTL_MS, nonce: randomBytes(16).toString("base64url") };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${PREFIX}${body}.${this.sign(body)}`;
  }

  /**
   * The payload when the state is authentic, unexpired, issued for `tool`, and not used before;
   * it is marked used at once. A retry's state (`retry`) must also be of the kind of request the
   * retry is and bound to the arguments it carries (their digest: `argsDigest(retry.bind)`).
   * Otherwise a sentence saying why not.
   */
  redeem(state: unknown, tool: string, retry?: { kind: StatePayload["kind"]; bind: unknown }, now = Date.now()): StatePayload | string {
    const payload = this.verify(state, now);
    if (typeof payload === "string") return payload;
    if (payload.tool !== tool) return `it was issued for ${payload.tool}, not ${tool}`;
    if (!this.markUsed(payload.nonce, now)) return "it was already used (each one works once)";
    if (retry && payload.kind !== retry.kind) return `it belongs to another kind of request (${payload.kind})`;
    if (retry && payload.args !== argsDigest(retry.bind)) return "the arguments differ from the call it was issued for";
    return payload;
  }

  /** Authenticity and expiry only (no use recorded). */
  verify(state: unknown, now = Date.now()): StatePayload | string {
    if (typeof state !== "string" || !state.startsWith(PREFIX) || state.length > 4 * 1024 * 1024) return "it is not a state pml issued";
    const dot = state.lastIndexOf(".");
    const body = state.slice(PREFIX.length, dot);
    const mac = Buffer.from(state.slice(dot + 1), "base64url");
    const want = Buffer.from(this.sign(body), "base64url");
    if (dot <= PREFIX.length || mac.length !== want.length || !timingSafeEqual(mac, want)) return "its signature does not verify (altered, or issued with another key)";
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      return "it is not a state pml issued";
    }
    if (typeof payload.exp !== "number" || payload.exp <= now) return "it expired (states work for 5 minutes)";
    if (payload.ws !== this.ws) return "it was issued in another workspace";
    return payload;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }

  /** Records a nonce; false when it was recorded before (by this or another process). */
  private markUsed(nonce: string, now: number): boolean {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return false;
    this.ensureDir();
    let fd: number;
    try {
      fd = openSync(join(this.usedDir, nonce), constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw new Error(`pml could not record a used approval state in ${this.usedDir}: ${(e as Error).message}`);
    }
    try {
      writeSync(fd, String(now));
    } finally {
      closeSync(fd);
    }
    if (now - this.lastSweep > 60_000) this.sweep(now);
    return true;
  }

  private ensureDir(): void {
    for (const dir of [join(this.usedDir, ".."), this.usedDir]) {
      try {
        if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a directory (a symlink?); pml will not write through it. Remove it.`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        mkdirSync(dir, { mode: 0o700 });
      }
    }
  }

  /** Nonces of expired states can go: their states are refused on expiry anyway. */
  private sweep(now: number): void {
    this.lastSweep = now;
    try {
      for (const name of readdirSync(this.usedDir)) {
        const path = join(this.usedDir, name);
        try {
          if (now - statSync(path).mtimeMs > STATE_TTL_MS + 60_000) unlinkSync(path);
        } catch {}
      }
    } catch {}
  }
}

/** A stable digest of tool arguments (key order does not matter). */
export function argsDigest(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args)).digest("base64url");
}

function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(",")}}`;
}

function stateKey(env: Record<string, string | undefined>): Buffer {
  const shared = env.PML_STATE_KEY?.trim();
  if (shared) {
    if (shared.length < 16) throw new Error("PML_STATE_KEY is too short: use at least 16 characters (e.g. `openssl rand -hex 32`).");
    return createHash("sha256").update(shared).digest();
  }
  const home = pmlHome(env);
  const path = join(home, "state.key");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  // Written in full under a temporary name, then linked into place: a concurrent pml either
  // wins the link or reads the complete key of the one that did.
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, randomBytes(32).toString("hex"));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  const st = lstatSync(path);
  if (!st.isFile()) throw new Error(`${path} is not a regular file; remove it and pml creates a new key.`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${path} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); run \`chmod 600 ${path}\`.`);
  const hex = readFileSync(path, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path} is not a key pml wrote; remove it and pml creates a new one.`);
  return Buffer.from(hex, "hex");
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
