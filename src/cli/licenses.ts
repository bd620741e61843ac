import { defineCommand } from "citty";
// Generated at build time from the bundle's module graph (scripts/third-party-notices.ts).
import noticesFile from "./generated/third-party-notices.txt" with { type: "file" };

export default defineCommand({
  meta: { name: "licenses", description: "Print the licences of the third-party code and data inside this pml binary" },
  async run() {
    const { readFileSync } = await import("node:fs");
    process.stdout.write(readFileSync(noticesFile, "utf8"));
  },
});
