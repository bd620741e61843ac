// `Authorization: Bearer <token>` on every request to `pml serve`: a caller without this user's
// token gets 401 before anything of its request is read. Compared as SHA-256 digests in constant
// time, so neither the token's length nor a matching prefix shows in how fast the answer comes.
import { createHash, timingSafeEqual } from "node:crypto";
import { SERVE_AUTH_REF } from "../../../config/serve-token.ts";
import { log } from "../../../log.ts";
import { httpError } from "./wire.ts";

/** What `pml serve` checks callers against. */
export interface BearerAuth {
  token: string;
  /** Where a client finds the token, in words, for the 401's message. */
  where: string;
}

const HOW = `send the header \`Authorization: Bearer <token>\` (in .mcp.json: "headers": {"Authorization": "${SERVE_AUTH_REF}"})`;

export class BearerCheck {
  private readonly digest: Buffer;
  private readonly where: string;
  /** The first refusal is logged (a client set up without the token shows why); later ones are not. */
  private logged = false;

  constructor(auth: BearerAuth) {
    this.digest = sha256(auth.token);
    this.where = auth.where;
  }

  /** The 401 that refuses `req`, or undefined when it carries the token. */
  refusal(req: Request): Response | undefined {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "");
    if (m && timingSafeEqual(sha256(m[1]!), this.digest)) return undefined;
    const what = m ? "the bearer token is not this pml serve's token" : "pml serve needs the token of the user who started it";
    const challenge = m ? 'Bearer realm="pml", error="invalid_token"' : 'Bearer realm="pml"';
    if (!this.logged) {
      this.logged = true;
      log.warn(`refused a request (401): ${what}; further refusals are not logged. Clients ${HOW}; ${this.where}.`);
    }
    return httpError(401, `Unauthorized: ${what}; ${HOW}; ${this.where}.`, { "www-authenticate": challenge });
  }
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
