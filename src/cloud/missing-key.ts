// What a user reads when a cloud tool is called without PML_API_KEY: said before any other check
// (the seed's order), so nothing asks for approval of a tool that cannot run.
export function cloudKeyMissing(tool: string, workspace: string): string {
  return (
    `Cloud mode requires PML_API_KEY: ${tool} runs in the pml cloud. Get a key from your pml cloud account (or the ` +
    "operator of your `pml registry serve`), then either run `pml init --api-key KEY` (stores it in the workspace .env), " +
    `add PML_API_KEY=... to ${workspace}/.env, or set PML_API_KEY in the "env" of the pml server in .mcp.json. ` +
    "Local tools keep working without it."
  );
}
