// RemoteServers as the gateway drives a remote the user wrote into .pml.json: each call and tool
// list planned by the real environment resolver, from the `env` it was made with, then the
// workspace .env. A test that wants another plan passes its own.
import type { EnvPlan } from "../../src/env/env-resolver.ts";
import type { CallContext } from "../../src/mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../../src/mcp/types.ts";
import type { HttpDescriptor } from "../../src/registry/descriptor.ts";
import { RemoteServers, type RemoteServersOptions } from "../../src/remote/remote-servers.ts";
import { userPlan } from "../helpers/env-plan.ts";

export class UserRemoteServers extends RemoteServers {
  constructor(private readonly options: RemoteServersOptions) {
    super(options);
  }

  planFor(ns: string, desc: HttpDescriptor): EnvPlan {
    return userPlan(ns, desc, { workspace: this.options.workspace, env: this.options.env });
  }

  override call(ns: string, desc: HttpDescriptor, action: string, args: Record<string, unknown>, ctx: CallContext, plan = this.planFor(ns, desc)): Promise<CallToolResult> {
    return super.call(ns, desc, action, args, ctx, plan);
  }

  override listTools(ns: string, desc: HttpDescriptor, plan = this.planFor(ns, desc), ctx?: Partial<CallContext>): Promise<ToolInfo[]> {
    return super.listTools(ns, desc, plan, ctx);
  }
}
