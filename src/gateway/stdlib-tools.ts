// pml's standard library, served in-process: `dns` (names, versions and records of capabilities
// and MCP servers), `meta` (what pml knows and how tools are used), `learn` (saving code and
// feedback). Reachable with `call`, from code as `mcp.dns.lookup({...})`, and found by `discover`;
// like every tool they pass the invoker's checks. One tool per module under tools/<namespace>/.
import type { InProcessNamespace } from "./backends.ts";
import type { MetaDeps } from "./meta-deps.ts";
import { StdlibNamespace } from "./tools/stdlib-namespace.ts";
import { lookup } from "./tools/dns/lookup.ts";
import { query } from "./tools/dns/query.ts";
import { whois } from "./tools/dns/whois.ts";
import { history } from "./tools/dns/history.ts";
import { rename } from "./tools/dns/rename.ts";
import { tag } from "./tools/dns/tag.ts";
import { fork } from "./tools/dns/fork.ts";
import { pin } from "./tools/dns/pin.ts";
import { deprecate } from "./tools/dns/deprecate.ts";
import { tools } from "./tools/meta/tools.ts";
import { servers } from "./tools/meta/servers.ts";
import { stats } from "./tools/meta/stats.ts";
import { save } from "./tools/learn/save.ts";
import { curate } from "./tools/learn/curate.ts";
import { feedback } from "./tools/learn/feedback.ts";
import { publish } from "./tools/learn/publish.ts";

export function stdlibNamespaces(deps: MetaDeps): Record<string, InProcessNamespace> {
  return {
    dns: new StdlibNamespace(deps, "dns", "names, versions and records of capabilities and MCP servers", [lookup, query, whois, history, rename, tag, fork, pin, deprecate]),
    meta: new StdlibNamespace(deps, "meta", "what pml knows and how its tools are used", [tools, servers, stats]),
    learn: new StdlibNamespace(deps, "learn", "teaching pml: save code as a capability, feedback on runs", [save, curate, feedback, publish]),
  };
}
