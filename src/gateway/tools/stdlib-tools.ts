// pml's standard library, served in-process: `dns` (names, versions and records of capabilities
// and MCP servers), `meta` (what pml knows and how tools are used), `learn` (saving code and
// feedback). Reachable with `call`, from code as `mcp.dns.lookup({...})`, and found by `discover`;
// like every tool they pass the invoker's checks. One tool per module under tools/<namespace>/.
import type { InProcessNamespace } from "../dispatch/backends.ts";
import { StdlibNamespace, type StdlibDeps } from "./stdlib-namespace.ts";
import { lookup } from "./dns/lookup.ts";
import { query } from "./dns/query.ts";
import { whois } from "./dns/whois.ts";
import { history } from "./dns/history.ts";
import { rename } from "./dns/rename.ts";
import { tag } from "./dns/tag.ts";
import { fork } from "./dns/fork.ts";
import { pin } from "./dns/pin.ts";
import { deprecate } from "./dns/deprecate.ts";
import { tools } from "./meta/tools.ts";
import { servers } from "./meta/servers.ts";
import { stats } from "./meta/stats.ts";
import { save } from "./learn/save.ts";
import { curate } from "./learn/curate.ts";
import { feedback } from "./learn/feedback.ts";
import { publish } from "./learn/publish.ts";

export function stdlibNamespaces(deps: StdlibDeps): Record<string, InProcessNamespace> {
  return {
    dns: new StdlibNamespace(deps, "dns", "names, versions and records of capabilities and MCP servers", [lookup, query, whois, history, rename, tag, fork, pin, deprecate]),
    meta: new StdlibNamespace(deps, "meta", "what pml knows and how its tools are used", [tools, servers, stats]),
    learn: new StdlibNamespace(deps, "learn", "teaching pml: save code as a capability, feedback on runs", [save, curate, feedback, publish]),
  };
}
